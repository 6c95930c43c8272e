"""The identity store: made on first use with mode 0600, stable, and refused when exposed."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from p2pcards.records.identity_store import (
    IdentityStoreError,
    config_dir,
    identity_path,
    load_or_create_identity,
)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("P2PCARDS_HOME", str(tmp_path / "cfg"))
    return tmp_path / "cfg"


def test_made_on_first_use_private_and_stable(home: Path) -> None:
    assert config_dir() == home and identity_path() == home / "identity.key"
    key, created = load_or_create_identity()
    assert created
    assert stat.S_IMODE(identity_path().stat().st_mode) == 0o600
    again, created_again = load_or_create_identity()
    assert not created_again and again.public == key.public
    assert identity_path().read_text().startswith("p2pcards-identity-v1 ")
    assert [p.name for p in home.iterdir()] == ["identity.key"]  # no temporary left


def test_a_key_readable_by_others_is_refused(home: Path) -> None:
    load_or_create_identity()
    os.chmod(identity_path(), 0o644)
    with pytest.raises(IdentityStoreError, match="can be read by other users.*chmod 600"):
        load_or_create_identity()


def test_a_garbled_key_file_is_refused(home: Path) -> None:
    home.mkdir()
    fd = os.open(home / "identity.key", os.O_WRONLY | os.O_CREAT, 0o600)
    os.write(fd, b"something else\n")
    os.close(fd)
    with pytest.raises(IdentityStoreError, match="is not a p2pcards identity key"):
        load_or_create_identity()


def test_xdg_config_home_is_used_without_p2pcards_home(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("P2PCARDS_HOME", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert config_dir() == tmp_path / "p2pcards"
