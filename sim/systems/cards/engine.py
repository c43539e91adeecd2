"""Mahou Shoujo card game engine (numba), one name space over its modules (seed 004).

The contract follows OpenSpiel: :func:`.turn.advance` runs the automatic steps
(setup shuffles, draw step, damage, defeats, Grand expiry...) until someone
must decide; :func:`.turn.legal` lists the legal actions of the player to move
(``g[G_TOMOVE]``) in phase ``g[G_PHASE]``; :func:`.turn.apply` plays one of
them and advances again; the game is over when ``g[G_PHASE] == PH_OVER``
(``g[G_WINNER]`` 0/1, or 2 for a draw). :meth:`.game_log.Game.legal_mask` turns the
list into a PettingZoo-style mask over all ``NACT`` action codes.

The engine lives in modules by phase; this module gathers their names, so
``engine.apply`` or ``engine.G_PHASE`` keep one address (the plug-in,
:mod:`.game_log`, :mod:`.ismcts` and the tests use it):

* :mod:`.layout` the declared fields of every array (the state ``g``: globals
  ``G_*``, a block per player ``P_*`` with four fighter slots ``SL_*``; the card
  table ``CT_*``; rules ``R_*``; streams ``S_*``; policy ``PP_*``), :mod:`.codes`
  the named values (card types, effect ops, conditions, phases, action kinds,
  end reasons, log events);
* :mod:`.zones` deck, hand, Dreamscape, fighter slots; :mod:`.combat` attack,
  damage, defeats, gems, exhaustion, Retreat; :mod:`.ops` card effects,
  conditions, Events; :mod:`.turn` setup, the turn, legal actions, applying
  one; :mod:`.players` the heuristics and the flat search; :mod:`.game` whole
  games and the block kernel.

Cards: ``cd[side, local id, CT_*]`` (see :mod:`.cardsdata`). Streams:
``st[S_*]`` (shuffles per side, coin flip, engine, policy per side, search
per side), each seeded with :func:`sim.rng.seed_stream`.

Hidden information: policies read only their own hand, both fields, both
Dreamscapes, gems and the counts of the rival's hand and of both decks; the
search policy resamples every hidden card (:func:`.players.determinize`) from a
multiset it builds in sorted order, so its decision does not depend on where
the hidden cards really are (tested).

Action codes: ``kind << 8 | arg`` with kinds ``K_*``; ``arg`` is a deck-local
card id, a slot, or ``local << 2 | slot`` for Transform.
"""
from __future__ import annotations

from . import combat as _combat
from . import game as _game
from . import ops as _ops
from . import players as _players
from . import turn as _turn
from . import zones as _zones
from .codes import *  # noqa: F401,F403
from .layout import *  # noqa: F401,F403

#: the engine's modules, lowest first
MODULES = (_zones, _combat, _ops, _turn, _players, _game)

for _m in MODULES:
    globals().update({k: v for k, v in vars(_m).items() if not k.startswith("__") and callable(v)
                      and getattr(getattr(v, "py_func", v), "__module__", None) == _m.__name__})
