"""The database side: tables, migrations, use cases, read models, documents.

The use cases that change state live in modules named by aggregate (``accounts``,
``events``, ``roster``, ``draws``, ``results``, ``access``). Each takes the session of the
caller's ``transaction()`` first and everything else as keyword arguments, checks the
actor's rights (``permissions`` decides who may see or change an event), changes rows,
writes one audit entry and returns a read model (``queries``). None commits: the
transaction does, so a composite use case (loading the demo) can call several inside one
transaction. User-fixable problems raise :class:`~tourney.store.errors.StoreUserError`
(and its 404/403/409/429 subclasses) with a message that says what to change.
"""
