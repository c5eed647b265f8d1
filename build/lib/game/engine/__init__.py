"""The rules of *Fudge Tactical Combat* as a pure library.

Nothing in this package imports pygame, pytmx or the user interface (docs/architecture.md "The engine stands alone");
every function that rolls dice takes the random generator as a parameter (rule 5).
"""
