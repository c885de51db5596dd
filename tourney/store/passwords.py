"""Password hashing with argon2id.

``standard`` is RFC 9106's low-memory profile (argon2-cffi's default); ``fast`` is for the
test-suite only, where hundreds of hashes would otherwise take minutes. Verification reads
the parameters from the stored hash, so hashes made with either profile verify anywhere.
"""

from __future__ import annotations

import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_PROFILES = {
    "standard": PasswordHasher,
    "fast": lambda: PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1),
}


def make_hasher(profile: str = "standard") -> PasswordHasher:
    """A hasher for a named profile.

    Raises:
        ValueError: the profile is not ``standard`` or ``fast``.
    """
    try:
        return _PROFILES[profile]()
    except KeyError:
        raise ValueError(f"unknown password hash profile {profile!r}") from None


def verify_password(hasher: PasswordHasher, password_hash: str, password: str) -> bool:
    """True when ``password`` matches ``password_hash``; a malformed hash never matches."""
    try:
        return hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


_dummy_hashes: dict[tuple[int, int, int], str] = {}


def dummy_hash(hasher: PasswordHasher) -> str:
    """A hash of nothing anyone knows, made with ``hasher``'s parameters.

    Verifying an unknown e-mail address against it costs as much as a wrong password, so
    response times do not tell which addresses have accounts.
    """
    key = (hasher.time_cost, hasher.memory_cost, hasher.parallelism)
    if key not in _dummy_hashes:
        _dummy_hashes[key] = hasher.hash(secrets.token_urlsafe(32))
    return _dummy_hashes[key]
