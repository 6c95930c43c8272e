"""Matches without a network, in one process: whole tables with the full protocol routed in
memory (:mod:`.memory`), hands of an engine alone played with full information
(:mod:`.simulate`), and the PettingZoo environments over the engines (:mod:`.env`, the ``rl``
extra)."""
