"""A registry of named things of one kind (match forms, dice names): each closed set has
one, and everything else asks it by name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from tourney.rules.errors import NotationError

Item = TypeVar("Item")


class Registry(Generic[Item]):
    """Items of one kind by their names, in the order they were registered.

    >>> colours = Registry[str]("colour", key=str.lower)
    >>> colours.register("Red")
    'Red'
    >>> colours.named("red"), [c for c in colours.all()]
    ('Red', ['Red'])
    """

    def __init__(self, what: str, *, key: Callable[[Item], str]) -> None:
        self.what = what
        """What an item is called in messages: "match form", "dice names"."""
        self._key = key
        self._items: dict[str, Item] = {}

    def register(self, item: Item) -> Item:
        """Add ``item``; returns it.

        Raises:
            NotationError: another item is registered under its name.
        """
        name = self._key(item)
        if name in self._items:
            raise NotationError(f"a {self.what} {name!r} is registered already")
        self._items[name] = item
        return item

    def all(self) -> tuple[Item, ...]:
        """Every item, in the order they were registered."""
        return tuple(self._items.values())

    def named(self, name: str) -> Item:
        """The item registered as ``name``.

        Raises:
            NotationError: none is; the message lists the names there are.
        """
        try:
            return self._items[name]
        except KeyError:
            known = ", ".join(self._items)
            raise NotationError(f"Unknown {self.what} {name!r}; choose one of {known}.") from None
