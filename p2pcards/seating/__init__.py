"""Who sits at a table, on what terms, and how a seat gets there or back, sans-IO: the genesis
of a table and its id (:mod:`.genesis`, SPEC §9.1), the rules a seat signs (:mod:`.rules`,
§11.2), the invite (:mod:`.invite`, §11.1) and the short invite codes (:mod:`.codes`, §11.6), a
seat's secrets (:mod:`.secrets`, §4), the seating handshake as two state machines
(:mod:`.handshake`, §11.3-§11.5), re-entry after a lost connection (:mod:`.reentry`, §11.7.2), a
seat's own check of a recovery of itself (:mod:`.recovery_watch`, §9.13.5) and the failures they
raise (:mod:`.errors`). The network layer (:mod:`p2pcards.net`) only carries their messages."""
