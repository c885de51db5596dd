"""The doubling cube as pure state transitions.

Terminology: the cube is *centred* until the first double is taken; then the taker
*owns* it and only the owner may redouble. A double is *offered* before the doubler
rolls; the opponent *takes* (the cube doubles and passes to the taker) or *drops* (and
loses the game at the value before the double). Match-level limits (the Crawford game,
the Holland rule, a 1-point match) are passed in by the caller as ``restriction``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tourney.rules.board import Side
from tourney.rules.errors import CubeActionError


@dataclass(frozen=True, slots=True)
class CubeState:
    """Value, owner (``None`` when centred) and any double waiting for an answer."""

    value: int = 1
    owner: Side | None = None
    offered_by: Side | None = None

    def may_double(self, side: Side, *, restriction: str | None = None) -> str | None:
        """Why ``side`` may not double now, or ``None`` when it may.

        ``restriction`` is a reason from the match (for example "this is the Crawford
        game") that forbids doubling whatever the cube's state.

        >>> CubeState().may_double(Side.X) is None
        True
        >>> CubeState(2, Side.O).may_double(Side.X)
        'the cube is owned by the other side'
        """
        if restriction:
            return restriction
        if self.offered_by is not None:
            return "a double is already waiting for an answer"
        if self.owner is not None and self.owner != side:
            return "the cube is owned by the other side"
        return None

    def offer(self, side: Side, *, restriction: str | None = None) -> CubeState:
        """The state after ``side`` doubles.

        Raises:
            CubeActionError: the double is not allowed; the message says why.
        """
        reason = self.may_double(side, restriction=restriction)
        if reason:
            raise CubeActionError(f"may not double: {reason}")
        return replace(self, offered_by=side)

    def take(self, side: Side) -> CubeState:
        """The state after ``side`` takes the double offered to it.

        Raises:
            CubeActionError: no double was offered to ``side``.
        """
        if self.offered_by is None or self.offered_by == side:
            raise CubeActionError("take without a double offered")
        return CubeState(self.value * 2, side, None)

    def drop(self, side: Side) -> int:
        """The points ``side`` loses by dropping: the cube value before the double.

        Raises:
            CubeActionError: no double was offered to ``side``.
        """
        if self.offered_by is None or self.offered_by == side:
            raise CubeActionError("drop without a double offered")
        return self.value
