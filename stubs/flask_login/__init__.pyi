from collections.abc import Callable
from datetime import timedelta
from typing import Any, TypeVar

from flask import Flask
from flask.typing import ResponseReturnValue

_Loader = TypeVar("_Loader", bound=Callable[[str], Any])
_Handler = TypeVar("_Handler", bound=Callable[[], ResponseReturnValue])

# A proxy to whatever the user loader returned for this request, or the anonymous user:
# the app decides the class, so the library cannot type it.
current_user: Any

class UserMixin:
    @property
    def is_active(self) -> bool: ...
    @property
    def is_authenticated(self) -> bool: ...
    @property
    def is_anonymous(self) -> bool: ...
    def get_id(self) -> str: ...

class LoginManager:
    session_protection: str | None
    def __init__(self, app: Flask | None = None, add_context_processor: bool = True) -> None: ...
    def init_app(self, app: Flask, add_context_processor: bool = True) -> None: ...
    def user_loader(self, callback: _Loader) -> _Loader: ...
    def unauthorized_handler(self, callback: _Handler) -> _Handler: ...
    def unauthorized(self) -> ResponseReturnValue: ...

def login_user(
    user: UserMixin,
    remember: bool = False,
    duration: timedelta | None = None,
    force: bool = False,
    fresh: bool = True,
) -> bool: ...
def logout_user() -> bool: ...
