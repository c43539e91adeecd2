"""Information-set Monte Carlo tree search (single observer) for the card game.

The policy ``{name: ismcts, budget: N, c: X, rollout: tempo|aggressive}``
follows SO-ISMCTS (Cowling, Powley and Whitehouse 2012, "Information Set
Monte Carlo Tree Search", IEEE TCIAIG 4(2), algorithm 3; OpenSpiel's
``ismcts``). One tree per decision, over the searching player's information
set; each of the ``budget`` iterations:

1. **determinize** (:func:`determinize_public`): copy the real state and
   resample every card the searcher cannot see (the rival's hand, both deck
   orders) consistently with public information;
2. **select**: walk down the tree, playing the determinization on. At a
   decision with several legal actions (for either player) a child is keyed
   by ``(player to move, action)``; children legal in this determinization
   are *available* (their availability count goes up by one). If some legal
   action has no child yet, **expand** one (the one the rollout heuristic
   ranks best, :func:`engine.heur_score`) and stop; otherwise take the
   available child with the best UCB1 score for the player to move,
   ``mean + c * sqrt(ln(availability) / visits)``. A decision with a single
   legal action is played without a node;
3. **roll out** with the rollout heuristic for both sides (the same
   :func:`engine.rollout` as the flat search, so both searches spend a
   budget of equal rollouts), value in [0, 1] for the searcher;
4. **back up**: every node on the path gets a visit and the value for the
   player who chose its action (``v`` or ``1 - v``).

The move taken is the root child with the most visits (ties: best mean, then
the legal-action order). The node pool holds ``budget + 1`` nodes in
preallocated arrays, made once per decision (never in the iteration loop).
Iteration ``i`` seeds its streams from ``(one draw of the searcher's search
stream, i, purpose)``, so a decision is a function of the game's streams
alone: the same on any thread or worker count.

The procedure is compiled on its own and called by machine address
(:mod:`sim.procs`; the engine's :func:`engine.choose` reads the address from
``pol[p, PP_PROC]``), so the engine does not import this module.
"""
from __future__ import annotations

import math

import numpy as np
from numba import types

from sim import procs
from sim._jit import jit, kernel
from sim.rng import next_u64, randbelow, seed_stream

from . import engine as E

# node fields (int64 pool ``nodes[k, N_*]``; values in ``val[k]`` float64)
N_PARENT = 0
N_KEY = 1       # (player to move << 12) | action code
N_CHILD = 2     # first child, -1 none
N_SIB = 3       # next sibling, -1 none
N_VIS = 4       # visits
N_AVAIL = 5     # availability: iterations in which the action was legal at the parent
N_WHO = 6       # player who chose the action (the value is this player's)
NF = 7


# ================================================================ determinization
@kernel(inline="always")
def _shuffle(g, lo, n, srow):
    """Fisher-Yates on ``g[lo:lo+n]``."""
    for i in range(n - 1, 0, -1):
        j = randbelow(srow, i + 1)
        t = g[lo + i]
        g[lo + i] = g[lo + j]
        g[lo + j] = t


@kernel(inline="always")
def _pick_in_hand(g, cd, q, typ, srow):
    """A uniformly random copy of type ``typ`` in player ``q``'s hand: its local id, or -1."""
    b = E.pb(q)
    nd = g[E.G_ND + q]
    tot = 0
    for loc in range(nd):
        if cd[q, loc, E.CT_TYPE] == typ:
            tot += g[b + E.P_HAND + loc]
    if tot == 0:
        return -1
    k = randbelow(srow, tot)
    for loc in range(nd):
        if cd[q, loc, E.CT_TYPE] == typ:
            c = g[b + E.P_HAND + loc]
            if k < c:
                return loc
            k -= c
    return -1


@kernel
def determinize_public(g, cd, me, srow):
    """Resample in place what player ``me`` cannot see, consistently with public information.

    * ``me``'s own deck: contents known, order resampled;
    * the rival's hand and deck: one hidden multiset, the rival's deck list
      minus everything public (fighters, girls, pets and Grand cards on the
      field, the Dreamscape) and minus the copies known to be in the hand
      (``P_KNOWN``: fetched from the deck or recovered from the Dreamscape by
      the invented ``search`` / ``recover`` cards, which show the card). The
      known copies stay in the hand;
      the other ``handn - known`` hand cards and the deck order are dealt from
      the multiset at random. During setup (before the reveal, seed L13-L14) the
      hand holds the rival's ``P_PICKS`` picked heroes, so that many heroes
      are dealt to it first, and a rival who has already chosen an opening
      hero (girl) gets a random hero (girl) of the new hand instead.

    The multiset is built in sorted order (counts per local id), so the
    result depends only on what ``me`` may know, never on where the hidden
    cards really are. Hand and deck sizes are unchanged.
    """
    b = E.pb(me)
    n = g[b + E.P_DECKN]
    # own deck: counting sort, then shuffle
    k = 0
    for loc in range(g[E.G_ND + me]):
        c = 0
        for i in range(k, n):
            if g[b + E.P_DECK + i] == loc:
                g[b + E.P_DECK + i] = g[b + E.P_DECK + k + c]
                g[b + E.P_DECK + k + c] = loc
                c += 1
        k += c
    _shuffle(g, b + E.P_DECK, n, srow)
    q = 1 - me
    bq = E.pb(q)
    nq = g[bq + E.P_DECKN]
    hn = g[bq + E.P_HANDN]
    ndq = g[E.G_ND + q]
    # hidden counts into P_HAND (scratch): hand + deck - known
    for i in range(nq):
        g[bq + E.P_HAND + g[bq + E.P_DECK + i]] += 1
    tot = 0
    free = hn
    for loc in range(ndq):
        kn = g[bq + E.P_KNOWN + loc]
        c = g[bq + E.P_HAND + loc]
        if kn > c:
            kn = c
        g[bq + E.P_HAND + loc] = kn
        free -= kn
        for _ in range(c - kn):
            g[bq + E.P_DECK + tot] = loc
            tot += 1
    _shuffle(g, bq + E.P_DECK, tot, srow)
    # setup: the picked heroes are in the hand; deal that many heroes first
    need = 0
    if g[E.G_SETUP] < 8:
        need = g[bq + E.P_PICKS]
        for loc in range(ndq):
            if cd[q, loc, E.CT_TYPE] == E.T_HERO:
                need -= g[bq + E.P_HAND + loc]
    taken = 0
    for i in range(tot):
        if taken >= need:
            break
        if cd[q, g[bq + E.P_DECK + i], E.CT_TYPE] == E.T_HERO:
            t = g[bq + E.P_DECK + i]
            g[bq + E.P_DECK + i] = g[bq + E.P_DECK + taken]
            g[bq + E.P_DECK + taken] = t
            taken += 1
    for i in range(free):
        g[bq + E.P_HAND + g[bq + E.P_DECK + i]] += 1
    for i in range(tot - free):
        g[bq + E.P_DECK + i] = g[bq + E.P_DECK + free + i]
    # the rival's private opening choices (setup only) follow the new hand
    if g[bq + E.P_OPENH] >= 0:
        g[bq + E.P_OPENH] = _pick_in_hand(g, cd, q, E.T_HERO, srow)
    if g[bq + E.P_OPENG] >= 0:
        g[bq + E.P_OPENG] = _pick_in_hand(g, cd, q, E.T_GIRL, srow)


# ================================================================ the tree
@kernel(inline="always")
def find_child(nodes, parent, key):
    c = nodes[parent, N_CHILD]
    while c >= 0:
        if nodes[c, N_KEY] == key:
            return c
        c = nodes[c, N_SIB]
    return -1


@kernel(inline="always")
def new_node(nodes, val, k, parent, key, who):
    nodes[k, N_PARENT] = parent
    nodes[k, N_KEY] = key
    nodes[k, N_CHILD] = -1
    nodes[k, N_SIB] = nodes[parent, N_CHILD] if parent >= 0 else -1
    if parent >= 0:
        nodes[parent, N_CHILD] = k
    nodes[k, N_VIS] = 0
    nodes[k, N_AVAIL] = 1
    nodes[k, N_WHO] = who
    val[k] = 0.0


@kernel(inline="always")
def ucb_best(nodes, val, kids, m, c):
    """Index ``i < m`` of the available child ``kids[i]`` with the best UCB1 score, or -1."""
    best = -1e300
    bi = -1
    for i in range(m):
        ch = kids[i]
        if ch >= 0:
            vis = nodes[ch, N_VIS]
            s = val[ch] / vis + c * math.sqrt(math.log(nodes[ch, N_AVAIL]) / vis)
            if s > best:
                best = s
                bi = i
    return bi


@kernel
def iterate(w, cd, rr, rp, rs, acts2, lg, me, horizon, nodes, val, kids, used, c):
    """One ISMCTS iteration from the determinization ``w`` (played on in place):
    select, expand one node, roll out, back up. Returns the number of nodes used."""
    node = 0
    cap = nodes.shape[0]
    while w[E.G_PHASE] != E.PH_OVER:
        m = E.legal(w, cd, rr, acts2)
        if m == 1:
            E.apply(w, cd, rr, acts2[0], rs, lg)
            continue
        q = w[E.G_TOMOVE]
        untried = -1
        bh = -1e300
        for i in range(m):
            ch = find_child(nodes, node, (q << 12) | acts2[i])
            kids[i] = ch
            if ch >= 0:
                nodes[ch, N_AVAIL] += 1
            elif used < cap:
                h = E.heur_score(w, cd, rr, rp[0], q, acts2[i])
                if h > bh:
                    bh = h
                    untried = i
        if untried >= 0:
            new_node(nodes, val, used, node, (q << 12) | acts2[untried], q)
            node = used
            used += 1
            E.apply(w, cd, rr, acts2[untried], rs, lg)
            break
        i = ucb_best(nodes, val, kids, m, c)
        if i < 0:
            break                       # pool full and nothing here yet: roll out
        node = kids[i]
        E.apply(w, cd, rr, acts2[i], rs, lg)
    v = E.rollout(w, cd, rr, rp, rs, acts2, lg, me, horizon)
    while node > 0:
        nodes[node, N_VIS] += 1
        val[node] += v if nodes[node, N_WHO] == me else 1.0 - v
        node = nodes[node, N_PARENT]
    nodes[0, N_VIS] += 1
    return used


@jit
def ismcts_choose(g, cd, rr, pol, p, acts, n, st, w, rs, acts2, rp, lg, scores):
    """SO-ISMCTS decision for player ``p`` among ``acts[:n]`` (see the module doc);
    returns the index of the action taken. ``scores[i]`` gets the root child's visits."""
    pp = pol[p]
    srow = st[E.S_SEARCH + p]
    budget = pp[E.PP_BUDGET]
    c = pp[E.PP_UCB_C] / 1000.0
    for r in range(2):
        for k in range(E.NPP):
            rp[r, k] = pp[k]
        rp[r, E.PP_KIND] = E.POL_HEURISTIC
        rp[r, E.PP_EPS] = pp[E.PP_ROLL_EPS]
    nodes = np.empty((budget + 1, NF), dtype=np.int64)
    val = np.empty(budget + 1, dtype=np.float64)
    kids = np.empty(E.MAXACT, dtype=np.int64)
    new_node(nodes, val, 0, -1, -1, 1 - p)
    used = 1
    base = next_u64(srow)
    for it in range(budget):
        if pol[p, E.PP_STOP] != 0:
            break                       # stopped (sim.cancel): the game is dropped by the caller
        for x in range(E.NSTATE):
            w[x] = g[x]
        w[E.G_LOGON] = 0
        for k in range(E.NST):
            seed_stream(rs[k], base, it, k)
        determinize_public(w, cd, p, rs[E.S_ENGINE])
        used = iterate(w, cd, rr, rp, rs, acts2, lg, p, pp[E.PP_HORIZON], nodes, val, kids, used, c)
    bi = 0
    bv = -1
    bm = -1.0
    for i in range(n):
        ch = find_child(nodes, 0, (p << 12) | acts[i])
        vis = 0
        mean = -1.0
        if ch >= 0:
            vis = nodes[ch, N_VIS]
            if vis > 0:
                mean = val[ch] / vis
        scores[i] = vis
        if vis > bv or (vis == bv and mean > bm + 1e-12):
            bv = vis
            bm = mean
            bi = i
    return bi


# ================================================================ binding
_A1I = types.Array(types.int64, 1, "C")
_A2I = types.Array(types.int64, 2, "C")
_A3I = types.Array(types.int64, 3, "C")
_A2U = types.Array(types.uint64, 2, "C")
_A1F = types.Array(types.float64, 1, "C")
#: the procedure's signature: the arguments of :func:`engine.choose`
SIG = procs.signature(_A1I, _A3I, _A1I, _A2I, types.int64, _A1I, types.int64, _A2U,
                      _A1I, _A2U, _A1I, _A2I, _A2I, _A1F)


def bind(pol: np.ndarray) -> np.ndarray:
    """``pol`` (int64[2, NPP]) copied with this process's address of :func:`ismcts_choose`
    in the ``PP_PROC`` field of every ISMCTS row (compiles it on first use; addresses
    belong to one process, so every process binds its own copy); its stop cell ``PP_STOP``
    is 0 (:func:`sim.cancel.stop_cell` sets it while the kernel runs)."""
    pol = np.array(pol, dtype=np.int64)
    pol[:, E.PP_STOP] = 0
    rows = pol[:, E.PP_KIND] == E.POL_ISMCTS
    if rows.any():
        addr = procs.addresses([ismcts_choose], SIG, label="the card game's ISMCTS")[0]
        pol[rows, E.PP_PROC] = addr
    return pol
