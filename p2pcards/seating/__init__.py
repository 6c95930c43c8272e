"""Who sits at a table and how a seat gets there, sans-IO (SPEC §11): the invite
(:mod:`.invite`, §11.1), a seat's secrets (:mod:`.secrets`, §4), the seating handshake as two
state machines (:mod:`.handshake`, §11.3-§11.5) and the errors they raise (:mod:`.errors`). The
network layer (:mod:`p2pcards.net`) only carries their messages."""
