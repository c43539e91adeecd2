"""The d10 combat add-on kernel (numba), one name space over its phase modules.

The rules live in modules by phase of the fight (seed 003 line numbers, audit
ids D.. in each module's docstring); this module only gathers their names, so
``kernel.attack``, ``kernel.D_HELD`` or ``kernel.take_turn`` keep one address
(the plug-in, :mod:`.fast`, :mod:`.game_log` and the tests use it):

* :mod:`.layout` the declared columns of every array, :mod:`.codes` the named
  values (abilities, tests, kinds, policy choices, rule values, the power
  mechanics), :mod:`.hooks` where each power acts (timing points);
* :mod:`.pools` dice, pools, wound-band penalties, mana, the exact chance table;
* :mod:`.wounds` wounds, thresholds, taking out, permanent wounds, holds;
* :mod:`.defence` targeting, defences, Fortune;
* :mod:`.powers` the power slots, every power's hooks and each timing point;
* :mod:`.attack` an attack: form, extras, augmentation, its targets, hits, spells;
* :mod:`.turn` the non-attack actions, the policy's choice, a turn, the plain turn;
* :mod:`.fight` initiative, a fight, a campaign, the block kernel.

Arrays: ``comb[n, NC]``, ``pol[n, NP]``, ``rules`` (the rule table, then the
chance table at ``R_CHANCE``), ``tab`` (int8 pool successes,
:func:`.pools.success_table`), ``dyn[n, ND]``, ``streams[NS, w]`` (uint64),
``cc[n, NK]`` (:mod:`.layout`).
"""
from __future__ import annotations

from sim.curves import standing_curves  # noqa: F401 - used by the plug-in

from . import attack as _attack
from . import defence as _defence
from . import fight as _fight
from . import pools as _pools
from . import powers as _powers
from . import turn as _turn
from . import wounds as _wounds
from .codes import *  # noqa: F401,F403
from .layout import *  # noqa: F401,F403

#: the phase modules, lowest first (:func:`.game_log.python_kernel` copies their functions)
MODULES = (_pools, _wounds, _defence, _powers, _attack, _turn, _fight)

for _m in MODULES:
    globals().update({k: v for k, v in vars(_m).items() if not k.startswith("__") and callable(v)
                      and getattr(getattr(v, "py_func", v), "__module__", None) == _m.__name__})
from .pools import CHUNK, TAB_SIZE  # noqa: E402,F401
