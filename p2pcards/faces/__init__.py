"""The faces of a seat: how a person sees the table and chooses moves.

:mod:`p2pcards.faces.terminal` draws in a terminal with ``rich``. Faces import the network
layer (:mod:`p2pcards.net`); the network layer never imports a face.
"""
