"""The rules of *Fudge Tactical Combat* as a pure library.

Nothing in this package imports pygame, pytmx or the user interface (DESIGN.md rule 1);
every function that rolls dice takes the random generator as a parameter (rule 5).
"""
