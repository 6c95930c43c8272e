"""What a seat keeps on disk and what a match leaves behind: the transcript file
(:mod:`.transcript`, SPEC §7), the evidence records after its chain (:mod:`.evidence`, SPEC
§9.8), the match record and the secrets a seat needs to come back after a crash
(:mod:`.match_record`, :mod:`.secret_store`, SPEC §11.7), the user's identity key
(:mod:`.identity_store`) and the name the user plays under (:mod:`.player_name`)."""
