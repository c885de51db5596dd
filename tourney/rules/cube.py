"""The doubling cube as pure state transitions.

Terminology: the cube is *centred* until the first double is taken; then the taker
*owns* it and only the owner may redouble. A double is *offered* before the doubler
rolls; the opponent *takes* (the cube doubles and passes to the taker) or *drops* (and
loses the game at the value before the double). Match-level limits (the Crawford game,
the Holland rule, a 1-point match) are passed in by the caller as ``restriction``.

Money play adds two answers (DESIGN section 7). A *beaver*: the doubled player takes and
redoubles at once, keeping the cube (A doubles to 2, B beavers: the cube is at 4 on B's
side). The doubler may take the beaver (the cube stays at 4 with B), pass it (and lose 2,
the value of the double he offered) or answer with a *raccoon*: redouble at once again,
keeping the cube at 8 on his side, which B in turn takes or passes (losing 4).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tourney.rules.board import Side
from tourney.rules.errors import CubeActionError
from tourney.rules.messages import Message


@dataclass(frozen=True, slots=True)
class CubeState:
    """Value, owner (``None`` when centred) and any double waiting for an answer."""

    value: int = 1
    owner: Side | None = None
    offered_by: Side | None = None
    redoubled: bool = False
    """Whether the waiting offer is a beaver or a raccoon: the cube is already at its new
    value on the offering side, and passing it costs half that value."""

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
            raise CubeActionError(Message("may not double: %(reason)s", reason=reason))
        return replace(self, offered_by=side)

    def _check_answer(self, side: Side, what: str) -> None:
        if self.offered_by is None or self.offered_by == side:
            raise CubeActionError(Message("%(what)s without a double offered", what=what))

    def take(self, side: Side) -> CubeState:
        """The state after ``side`` takes the double offered to it (after a beaver or a
        raccoon the cube stays at its value on the offering side).

        >>> CubeState(4, Side.O, Side.O, redoubled=True).take(Side.X)
        CubeState(value=4, owner=<Side.O: 1>, offered_by=None, redoubled=False)

        Raises:
            CubeActionError: no double was offered to ``side``.
        """
        self._check_answer(side, "take")
        if self.redoubled:
            return CubeState(self.value, self.offered_by, None)
        return CubeState(self.value * 2, side, None)

    def drop(self, side: Side) -> int:
        """The points ``side`` loses by dropping: the cube value before the double (for a
        passed beaver or raccoon, the value the passing side had offered).

        Raises:
            CubeActionError: no double was offered to ``side``.
        """
        self._check_answer(side, "drop")
        return self.value // 2 if self.redoubled else self.value

    def beaver(self, side: Side) -> CubeState:
        """The state after ``side``, doubled, beavers: the cube at twice the offered value
        on ``side``'s side, waiting for the doubler's answer.

        >>> CubeState(1, None, Side.X).beaver(Side.O)
        CubeState(value=4, owner=<Side.O: 1>, offered_by=<Side.O: 1>, redoubled=True)

        Raises:
            CubeActionError: no plain double was offered to ``side``.
        """
        self._check_answer(side, "beaver")
        if self.redoubled:
            raise CubeActionError(Message(
                "a beaver answers a plain double, and this is a beaver already (a raccoon "
                "answers it)",
            ))
        return CubeState(self.value * 4, side, side, redoubled=True)

    def raccoon(self, side: Side) -> CubeState:
        """The state after ``side``, beavered, redoubles at once: the cube at twice its
        value on ``side``'s side, waiting for the beaverer's answer.

        Raises:
            CubeActionError: no beaver was offered to ``side``.
        """
        self._check_answer(side, "raccoon")
        if not self.redoubled:
            raise CubeActionError(Message(
                "a raccoon answers a beaver, and no beaver was offered",
            ))
        return CubeState(self.value * 2, side, side, redoubled=True)
