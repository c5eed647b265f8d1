"""A table across machines: one host runs the battle, clients at their own computers take its seats.

The host is the one authority (``docs/architecture.md``): it alone holds the ``Battle``, rolls the dice and
checks every decision with the engine's seats (``game.engine.seats``) and ``apply``. Clients send decisions
and receive only what their seat may see; the dice seed never leaves the host. The wire is WebSocket
(``websockets``) carrying versioned JSON messages (``game.net.protocol``, documented in ``docs/network.md``).

Modules: ``protocol`` (messages, their schemas and limits), ``wire`` (a battle's setup and dice as data),
``mirror`` (a client's copy of the battle), ``table`` (the host's seats and decisions, without sockets),
``host`` (the server) and ``guard`` (what one connection may cost it), ``host_command`` (the ``host``
command), ``client`` (a seat's connection and the ``join`` command), ``remote`` (a seat shaped like a
session, for the window), ``tls`` (``wss://``), ``password`` (the password off the command line),
``remembered`` (the tables a window joined). The engine never imports this package.
"""
