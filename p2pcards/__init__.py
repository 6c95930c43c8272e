"""p2pcards: peer-to-peer Italian card games with mental poker and verifiable transcripts."""

__version__ = "0.1.0"
