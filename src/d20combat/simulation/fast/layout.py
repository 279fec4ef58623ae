"""The kernel's array layout: the columns of the per-creature and per-option tables, the knobs, the map planes.

Shared by :mod:`.compile` (which fills the arrays), :mod:`.components` (each policy component's compile step
writes its knobs) and the kernel (which reads them); it imports nothing, so nothing here can form a circle.
It also holds the one refusal every compile step raises, :class:`NotCompilable`.
"""

from __future__ import annotations


class NotCompilable(ValueError):
    """The fast path cannot play this battle exactly; the message says why (the reference engine can)."""


# --- per-creature columns (CS) ---------------------------------------------------------------------
SIDE, SIZE, REACH, SPEED, CON_MOD, CON_SCORE, LOW_LIGHT, DARKVISION, SNEAK_HELPLESS = range(9)
INTO_MELEE_FLAG, INTO_MELEE, ID_RANK, N_ATTACKS, SNEAK_VS_ANY, MOVE_SLOT, SHEET_HP, LAND_SPEED = range(9, 17)
BLUR_PCT, CONCEALED_PCT = 17, 18
"""The magical concealment a creature starts with (its starting conditions ``blur`` and ``concealed:N``, CMV-CONC-06),
a source of its own on every attack against it (0: none; :mod:`.starting`)."""
FEAR_SRC, FEAR_DC, WILL_SAVE = 19, 20, 21
"""Off-guard's fear (CMV-COND-27..29, :mod:`.kernel_fear`) of a creature that starts ``panicked:<source>:<DC>``: the
source named (-1: none, the nearest foe), the Will save's DC (-1: none, never overcome) and the Will save's total
bonus while panicked (shaken's −2 included, CMV-COND-24)."""
N_CS = 22

# --- per-option columns (OPT) -----------------------------------------------------------------------
RANGED, SPELL, RELOAD, TOUCH, ATK_TOTAL, ATK_SUM, D_COUNT, D_SIDES, D_BONUS, STATIC, E_COUNT, E_SIDES, \
    E_BONUS, MULT, COVER_BY_CREATURES, PROJECTILE = range(16)
N_OPT = 16
RELOAD_NONE, RELOAD_MOVE, RELOAD_FULL = 0, 1, 2

# --- knobs (KN) -----------------------------------------------------------------------------------------
(K_MAX_ROUNDS, K_DIAG_COUNTS, K_STEP_FREE, K_PARTIAL, K_DYING_PF1, K_MAX_FREE, K_MIN_DAMAGE,
 K_CONC_BEFORE, K_MELEE_IGNORES_HELPLESS, K_MINRANGE_IGNORES_HELPLESS, K_SURPRISE_FREE, K_COVER_VALUE,
 K_PARTIAL_VALUE, K_CLEARANCE, K_MAX_CANDIDATES, K_N_SIDES, K_CONC_STACK, K_CONC_AREAS) = range(18)
(K_ECON_CMV, K_INJURY_CMV, K_DEATH_CON, K_PASS_STABLE, K_DYING_GM, K_BLOODIED_UP, K_STRAIN, K_DEF_CMV,
 K_UNSEEN, K_MOVE_CMV, K_CHARGE_EARLY, K_ATK_CMV, K_ATK_BLOODIED_UP, K_HIGHER_MELEE_ONLY, K_COVER_CMV,
 K_SOFT_RANGED_ONLY, K_TACTICS_CMV, K_CDG_REMOVES_MISS, K_CDG_KEEPS, K_AOO, K_AOO_PER_ROUND,
 K_AOO_NOT_COVER, K_AOO_TABLE) = range(18, 41)
K_SKL_MITIGATE, K_SKL_MIN_AFTER, K_SKL_NO_CONC = range(100, 103)
"""Skill-based's block of knobs (issue 14, ``kernel_skill_*.py``), numbered from 100. ``kn[K_SKL_MITIGATE]``: the
damage is skill-based's armor-rating damage, the defender's rating in ``kn[K_SKL_ARMOR + creature]``, floored at
``kn[K_SKL_MIN_AFTER]`` after armor (SKL-DMG-03/04). ``kn[K_SKL_NO_CONC]``: no concealment — the sources are found
(a totally concealed target is attacked in a named square) but give no miss chance (rules-diff P18)."""
K_SKL_ECON, K_SKL_AS_BASIC, K_SKL_AUTO_RESERVE, K_SKL_ROUND_SURPRISE, K_SKL_AOO_PER_ROUND = range(103, 108)
"""``kn[K_SKL_ECON]``: the economy is skill-based's complex/basic one with its reserve (SKL-ACT, SKL-RES,
``kernel_skill_economy``); its variants ``skl_complex_as_basic`` (``K_SKL_AS_BASIC``), ``skl_auto_reserve``
(``K_SKL_AUTO_RESERVE``), ``skl_surprise_limit = round`` (``K_SKL_ROUND_SURPRISE``), and the attacks of
opportunity a round its reactions refresh with the reserve (``K_SKL_AOO_PER_ROUND``, SKL-AOO-24)."""
K_SKL_ACTIONS, K_SKL_NO_CHARGE, K_SKL_NO_STEP = range(109, 112)
"""``kn[K_SKL_ACTIONS]``: skill-based's action set's round procedure — the reserve released at the start of the
creature's turn and lapsing at the end of the round (SKL-RES-02/04/06, ``kernel_skill_economy``); no charge
(``K_SKL_NO_CHARGE``, rules-diff P7 unless ``skl_charge``) and no 5-foot step (``K_SKL_NO_STEP``, SKL-AOO-12 unless
``skl_pf_actions``)."""
K_SKL_ARMOR = 120
MAX_SKL_CREATURES = 128
"""``kn[K_SKL_ARMOR + i]``: creature ``i``'s armor rating (for up to ``MAX_SKL_CREATURES`` creatures)."""
T_SKL_RESERVE = 100
"""The kernel's scalars ``t[T_SKL_RESERVE + i]`` (after the core's, in :mod:`.kernel_base`): creature ``i``'s
complex actions held in reserve (SKL-RES) under skill-based's economy."""
T_SKL_POS = T_SKL_RESERVE + MAX_SKL_CREATURES
"""``t[T_SKL_POS + i]``: creature ``i``'s place in the initiative order (has it had its turn this round?)."""
MAX_SKL_OPEN = 32
"""The creatures a battle under skill-based's tactics may have: the feint openings are kept per (target, feinter)."""
T_SKL_DECLARE = T_SKL_POS + MAX_SKL_CREATURES
"""``t[T_SKL_DECLARE]``: the turn's reserve declaration is spent (the ``declare`` pool, SKL-RES-02)."""
T_SKL_CRIT = T_SKL_DECLARE + 1
"""``t[T_SKL_CRIT]``: the critical-attack penalty declared for the attack resolving now (SKL-CRIT-01..04)."""
T_SKL_SEQ = T_SKL_DECLARE + 2
"""``t[T_SKL_SEQ]``: the feint openings added so far (their order among a creature's effects)."""
T_SKL_OPEN = T_SKL_DECLARE + 3
"""``t[T_SKL_OPEN + target * MAX_SKL_OPEN + feinter]``: the round the feint opening lasts until (0: none,
SKL-FEINT-05); ``t[T_SKL_OPSEQ + …]`` the order it was added in."""
T_SKL_OPSEQ = T_SKL_OPEN + MAX_SKL_OPEN * MAX_SKL_OPEN
T_SKL_OFF = T_SKL_OPSEQ + MAX_SKL_OPEN * MAX_SKL_OPEN
"""``t[T_SKL_OFF + i]``: creature ``i``'s two-weapon bonus action held (the ``offhand`` pool, SKL-TWF-01/02);
``t[T_SKL_OFF_TURN]`` the turn's."""
T_SKL_OFF_TURN = T_SKL_OFF + MAX_SKL_CREATURES
T_SKL_END = T_SKL_OFF_TURN + 1
"""The kernel's scalars end here (``N_T``)."""
K_SKL_ACTIVE = 108
"""``kn[K_SKL_ACTIVE]``: skill-based's block and dodge after the roll (:class:`BlockAndDodge`,
``kernel_skill_defense``), its tables below."""
MAX_SKL_OPTIONS = 15
"""The attack options per creature the tables of block and dodge hold (the wield states: none, or one of them)."""
SKL_DODGE, SKL_BLOCK, SKL_BLOCK_OFF, SKL_RANGED_MAIN, SKL_THREATENS = range(5)
SKL_NO_DEFENSE = -1000
K_SKL_DEF = K_SKL_ARMOR + MAX_SKL_CREATURES
"""``kn[K_SKL_DEF + ((i * (MAX_SKL_OPTIONS + 1) + w + 1) * 5 + SKL_*)]``: creature ``i`` wielding option ``w``
(-1: nothing) — its dodge, block and off-hand block bonuses (``SKL_NO_DEFENSE``: it cannot), whether its main
hand holds a ranged weapon (−6 in melee, SKL-RNG-01) and whether it threatens (SKL-AOO-02/03)."""
K_SKL_DANGER = K_SKL_DEF + MAX_SKL_CREATURES * (MAX_SKL_OPTIONS + 1) * 5
"""``kn[K_SKL_DANGER + i * (MAX_SKL_OPTIONS + 1) + o]``: twice the mean damage before armor of creature ``i``'s
option ``o`` (the AI's hint, ``BlockAndDodge.hint``)."""
K_SKL_AOO = 112
"""``kn[K_SKL_AOO]``: the attacks of opportunity are skill-based's (:class:`SkillAttacksOfOpportunity`,
``kernel_skill_reactions``): the threatening attack per weapon in hand in the table below, the distracting acts
the kernel's AI can do (firing a ranged weapon, loading a crossbow, SKL-AOO-14/17) provoking too."""
K_SKL_THREAT = K_SKL_DANGER + MAX_SKL_CREATURES * (MAX_SKL_OPTIONS + 1)
"""``kn[K_SKL_THREAT + i * (MAX_SKL_OPTIONS + 1) + w + 1]``: creature ``i`` wielding option ``w`` (-1: nothing)
threatens with its option ``o`` (-1: nothing) — the melee weapon in hand, an off-hand one or the unarmed strike
(SKL-AOO-02)."""
K_SKL_HELD = K_SKL_THREAT + MAX_SKL_CREATURES * (MAX_SKL_OPTIONS + 1)
"""``kn[K_SKL_HELD + i * (MAX_SKL_OPTIONS + 1) + o]``: creature ``i``'s option ``o`` is at hand undrawn — an
off-hand weapon or the unarmed strike (``WeaponSkillAttack.holds``)."""
K_SKL_CALM = K_SKL_HELD + MAX_SKL_CREATURES * (MAX_SKL_OPTIONS + 1)
"""``kn[K_SKL_CALM + i]``: the distracting acts creature ``i`` does without provoking (SKL-AOO-22, a feat
``no_provoke:<act>``): bit ``SKL_ACT_FIRE`` firing a ranged weapon, ``SKL_ACT_RELOAD`` loading a crossbow."""
SKL_ACT_FIRE, SKL_ACT_RELOAD = 1, 2
SKL_ACT_CAST = 4
"""Bit ``SKL_ACT_CAST`` of ``kn[K_SKL_CALM + i]``: casting a spell (SKL-AOO-15)."""
K_SKL_TACTICS, K_SKL_OPEN_ROUNDS, K_SKL_FEINT_TIE = range(113, 116)
"""``kn[K_SKL_TACTICS]``: skill-based's tactics (:class:`SkillTactics`, ``kernel_skill_tactics``) — the reserve when
wounded and engaged, feints, the critical-attack penalty by expected damage; the feint's opening lasts
``kn[K_SKL_OPEN_ROUNDS]`` rounds (``skl_feint_opening_rounds``) and a tie goes to the feinter with
``kn[K_SKL_FEINT_TIE]`` (``skl_feint_tie_succeeds``, SKL-FEINT-04/05)."""
K_SKL_FACTOR = K_SKL_CALM + MAX_SKL_CREATURES
"""``kn[K_SKL_FACTOR + i * (MAX_SKL_OPTIONS + 1) + o]``: the damage one point of critical-attack penalty buys with
creature ``i``'s option ``o`` (SKL-CRIT-04, ``DeclaredCriticalAttack.damage_factor``)."""
K_SKL_FEINT = K_SKL_FACTOR + MAX_SKL_CREATURES * (MAX_SKL_OPTIONS + 1)
"""``kn[K_SKL_FEINT + i * (MAX_SKL_OPTIONS + 1) + o]``: creature ``i``'s feint bonus with option ``o`` (its weapon
skill + Int, SKL-FEINT-03)."""
K_SKL_RESIST = K_SKL_FEINT + MAX_SKL_CREATURES * (MAX_SKL_OPTIONS + 1)
"""``kn[K_SKL_RESIST + i]``: creature ``i``'s resistance to a feint (Defense skill + Wis, SKL-FEINT-03)."""
K_SKL_COUNTER_TIE = 116
"""``kn[K_SKL_COUNTER_TIE]``: a tie counters the spell (``skl_counterspell_tie_counters``, SKL-CSPL-05)."""
MAX_SKL_MAGIC = 4
"""The magic skills (of the spell attacks) a battle under skill-based's actions may have."""
K_SKL_MAGIC = K_SKL_RESIST + MAX_SKL_CREATURES
"""``kn[K_SKL_MAGIC + i * MAX_SKL_MAGIC + k]``: creature ``i``'s rating in the battle's ``k``-th magic skill
(SKL-CSPL-06/07: trained when ≥ 1)."""
K_SKL_SPELL_SKILL = K_SKL_MAGIC + MAX_SKL_CREATURES * MAX_SKL_MAGIC
"""``kn[K_SKL_SPELL_SKILL + i * (MAX_SKL_OPTIONS + 1) + o]``: the magic skill (``k``) creature ``i``'s spell attack
``o`` is cast with (-1: not a spell)."""
K_SKL_TWF = K_SKL_SPELL_SKILL + MAX_SKL_CREATURES * (MAX_SKL_OPTIONS + 1)
"""``kn[K_SKL_TWF + (i * (MAX_SKL_OPTIONS + 1) + w + 1) * 4 + TWF_*]``: creature ``i`` in the two-weapon mode (a
starting condition, SKL-TWF-08) wielding option ``w`` (-1: nothing): whether it has an off hand (a weapon, a shield),
the off-hand attack option (-1: a shield), and the penalties of the primary and the off hand (SKL-TWF-03/04/10);
all 0 for a creature not in the mode."""
TWF_HAS, TWF_OPTION, TWF_PRIMARY, TWF_OFF = range(4)
K_SKL_IS_OFF = K_SKL_TWF + MAX_SKL_CREATURES * (MAX_SKL_OPTIONS + 1) * 4
"""``kn[K_SKL_IS_OFF + i * (MAX_SKL_OPTIONS + 1) + o]``: creature ``i``'s option ``o`` is an off-hand attack."""
N_KN_SKL = K_SKL_IS_OFF + MAX_SKL_CREATURES * (MAX_SKL_OPTIONS + 1)
A_SKL_RESERVE, A_SKL_FEINT, A_SKL_CAST, A_SKL_BONUS = 100, 101, 102, 103
"""The kernel's action codes of skill-based's own actions (the core's ``A_*`` are below): :class:`Reserve`,
:class:`Feint`, :class:`CastSpell`, :class:`BonusAttack` (the off hand's, SKL-TWF-01/02)."""
K_FEAR_SAVE, K_SHAKEN_DEATH = N_KN_SKL, N_KN_SKL + 1
"""Off-guard's fear (:mod:`.kernel_fear`): ``kn[K_FEAR_SAVE]`` a Will save at the end of each turn overcomes it
(``cmv_fear_save = end-of-turn``, CMV-COND-23); ``kn[K_SHAKEN_DEATH]`` shaken's −2 applies to death saves
(``cmv_shaken_death_saves``, CMV-COND-24)."""
N_KN = N_KN_SKL + 2
"""``kn[K_ECON_CMV]``: the economy is off-guard's minor/major one (staggered: a single action; dying, stable
or dead: no actions; no PFB strain). ``kn[K_INJURY_CMV]``: health is off-guard's damage taken (CMV-INJ), with
its variants: the death save adds Con (``K_DEATH_CON``), a passed one makes stable (``K_PASS_STABLE``) rather
than staggered, the GM decides a dying creature's fate (``K_DYING_GM``), bloodied rounds up (``K_BLOODIED_UP``),
a staggered creature's major action costs 1 damage (``K_STRAIN``). ``kn[K_DEF_CMV]``: the defense is off-guard's
(the surprised off-guard until they act, squeezing −4), ``kn[K_UNSEEN]`` with an unseen attacker's target
off-guard too. ``kn[K_ATK_CMV]``: the attack is off-guard's situational modifiers (bloodied rounding up with
``K_ATK_BLOODIED_UP``, higher ground for melee only with ``K_HIGHER_MELEE_ONLY``). ``kn[K_COVER_CMV]``: the cover is
off-guard's soft and improved cover (creatures none against reach attacks with ``K_SOFT_RANGED_ONLY``).
``kn[K_TACTICS_CMV]``: off-guard's actions and tactics — the AI's coup de grace on a helpless foe (the find
removing the miss chance with ``K_CDG_REMOVES_MISS``, a dying or stable survivor keeping that state with
``K_CDG_KEEPS``). ``kn[K_AOO]``: attacks of opportunity from threatened squares (kernel_reactions), provoked by
moves and charges, none against cover with ``K_AOO_NOT_COVER``, none by an off-guard creature with
``K_AOO_TABLE`` (off-guard's ``ConditionTable.can_react``; else anyone able to act may react).
``kn[K_AOO_PER_ROUND]``: the attacks of opportunity the economy gives back every round (0: no pools, none)."""
CONC_STRONGEST, CONC_ADD, CONC_INDEPENDENT = 0, 1, 2
"""``kn[K_CONC_STACK]``: how the concealment component combines its sources (strongest; added or
1 − Π(1 − p), every source counting, capped at 50 %, with the defender's own squares on the lines)."""
AREA_PLANE = 2
"""``light[AREA_PLANE, c, r]``: the connected area of concealing terrain the square belongs to (-1: none),
written when ``kn[K_CONC_AREAS]`` (each area a source of its own)."""
NARROW_PLANE = 3
"""``light[NARROW_PLANE, c, r]``: 1 on a narrow square, where a creature squeezes (CMV-SIT-10), written by
off-guard's defense."""
ELEVATION_PLANE = 4
"""``light[ELEVATION_PLANE, c, r]``: the square's elevation (higher ground, CMV-SIT-04), written by off-guard's
attack."""
LOW_RUN_PLANE = 5
"""``light[LOW_RUN_PLANE, c, r]``: the connected run of low walls (a low obstacle) the square belongs to (-1:
none), written by off-guard's cover."""
N_PLANES = 6
