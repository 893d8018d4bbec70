"""Commands whose module is imported only when they run (a CLI that answers
in well under a second).

A :class:`LazyGroup` lists its lazy commands in ``--help`` from a one-line summary
given at registration, without importing their modules; running one (or asking
for its own ``--help``) imports the module and builds the command from the typer
function found there. Heavy modules (the MCP server, export / import, the guards)
therefore cost nothing to ``graphmem --help`` or ``graphmem stats``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, ClassVar

import typer
from typer import _click as click  # typer 0.29 vendors click: its groups take these types
from typer.core import TyperCommand, TyperGroup


@dataclass(frozen=True)
class LazyCommand:
    """Where a command lives: ``module:attribute`` is a typer command function."""

    module: str
    attribute: str
    summary: str

    def load(self, name: str) -> click.Command:
        target: Any = getattr(importlib.import_module(self.module), self.attribute)
        holder = typer.Typer()
        holder.command(name)(target)
        command = typer.main.get_command(holder)
        command.name = name
        return command


class LazyGroup(TyperGroup):
    """A typer group with lazy commands (see the module docstring). Subclasses set
    :attr:`lazy`; :func:`lazy_group` makes one."""

    lazy: ClassVar[dict[str, LazyCommand]] = {}
    _listing = False

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*super().list_commands(ctx), *(n for n in self.lazy if n not in self.commands)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = super().get_command(ctx, cmd_name)
        if found is not None or cmd_name not in self.lazy:
            return found
        entry = self.lazy[cmd_name]
        if self._listing:  # the group's own --help: the summary is enough
            return TyperCommand(cmd_name, help=entry.summary, short_help=entry.summary)
        command = entry.load(cmd_name)
        self.commands[cmd_name] = command
        return command

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False


def lazy_group(commands: dict[str, LazyCommand]) -> type[LazyGroup]:
    """A :class:`LazyGroup` subclass with these lazy commands (pass it as
    ``typer.Typer(cls=...)``)."""
    return type("LazyGroup", (LazyGroup,), {"lazy": dict(commands)})
