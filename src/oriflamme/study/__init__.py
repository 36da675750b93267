"""``oriflamme study``: balance studies at scale. Bots play many games; the study writes,
per card type and per seat, how often a family won, the Influence each card's ability
brought, how often each card was eliminated; as CSV, JSON, PNG plots and a Markdown
summary.

Running it
==========

``oriflamme study --games N --families F --sets S[,S...] [--bots ...] [--jobs N | --ray
ADDRESS] --out DIR``. ``--games``, ``--seed``, ``--progress``, ``--jobs``, ``--bots``,
``--families``, ``--sets``, ``--size``, ``--cards``, ``--variant``, ``--no-plugins`` and
``--without`` are ``oriflamme simulate``'s, parsed and bounded the same way, but for
``--bots``, whose default here is ``heuristic`` (``random`` there): a card's strength
shows when it is played well; random players mostly measure luck.

- Game ``i`` is dealt from seed ``SEED + i`` and its bots draw from the same generator,
  as in ``simulate`` (its seat results are the same game for game). Every total is a sum
  of whole numbers over games, so ``--jobs 1``, ``--jobs 8`` and ``--ray`` give the same
  totals (``totals.json``) and tables; only the times differ.
- ``--jobs N``: N processes on this machine (default: every core), forked, sharing out
  tasks of 250 games (2 when a bot searches); Ctrl-C stops them all quietly (status 130).
- ``--ray ADDRESS``: tasks on a Ray cluster, ``ray.init(address=ADDRESS)``: ``auto`` for
  the cluster this machine belongs to, ``ray://host:10001`` or ``host:6379`` for another,
  ``local`` to start a cluster in this process on every core (with
  ``RAY_AUTH_MODE=disabled`` unless the environment sets it, and shut down at the end).
  A process already connected to Ray (a notebook, a test) uses that connection and
  leaves it open. Each task is sent plain data (the configuration's ``to_dict``, the bot
  choices as text, the plugin choice of ``--no-plugins``/``--without``); each worker
  process rebuilds the configuration, its :class:`~oriflamme.Registry` from the plugins
  installed on its node (refusing a node whose plugins or versions differ from the
  driver's) and the bots, and sends back its totals as plain data. Every node needs
  ``oriflamme`` (and the same plugins) installed. Some 4 tasks per cluster CPU.
- The plots need matplotlib, ``--ray`` needs Ray: both come with the optional
  ``study`` extra; without them the command says so in one line and
  exits with status 2 before any game is played. Plots are drawn with matplotlib's Agg
  backend (files only).
- ``--out DIR`` is made if missing (with its parents); a file there is refused.
- A progress bar on stderr (``--progress auto``: when stderr is a terminal).

What is counted
===============

A study counts *copies*: one per family per card type per game (each family holds one
copy of every card of the game's card list, RULINGS G1; with a repeated key in
``--cards``, one per repeat). A copy's results are its **family's**: the family of its
printed colour, whoever owns it later through Bribery. The family's result in a game is
an outright win (1), a win shared by k families (a tie, RULINGS G6: counted as 1/k), or
a loss (0); a *win rate* is the sum of these shares over the copies counted, divided by
their number, so the fair share of a family is exactly 1 / families. Shares are kept in
whole 60ths (60 is divisible by every number of winners), so they add up exactly.

The moments a copy is counted at (a copy may be in several):

- **placed**: its own family put it into the queue, at least once during the game: from
  the hand (face down), or face up by an ability (Ablaze: the Twin, through the Prince;
  an Impersonation's replacement, which may come from the set-aside cards).
- **revealed**: its family turned it face up by choice in the resolution phase (the
  ``revealed`` event). A card put in face up (the Twin) or turned face up by being
  eliminated is not revealed.
- **kept back**: still in its family's hand when the game ended. Each family is dealt 7
  cards and places one per round for 6 rounds, so each keeps exactly one card back
  (rulebook, end of the game; RULINGS G5): the card it chose not to play. Set-aside
  cards were never in the hand and are not kept back.
- **set aside**: one of the cards set aside face down at setup (all but 7 of the
  shuffled cards, RULINGS G2): never in the hand. A control: its family won without
  ever holding it.

The Ablaze Twin waits in the reserve: it is never dealt, set aside, kept back or
revealed; it can only be placed (face up).

Influence: every ``gained``, ``lost`` and ``stolen`` event names the card that caused
it (:mod:`oriflamme.events`). It is attributed to that card:

- **token gain**: what any card gains for the tokens on it when revealed, 1 per token
  (RULINGS R2): the ``gained`` of its ``revealed`` event, up to its ``tokens``. A card
  whose ``reveal_tokens`` (in its set's YAML) is ``gain`` gains exactly that; what a
  reveal gains beyond it is the card's ability: a Conspiracy (``double``) gains twice
  its tokens, the tokens as token gain and as many again as ability gain. An Ambush and
  a Trap (``supply``) and a Plot (``ability``) gain nothing on revealing: no token gain,
  and the tokens they forgo count as no loss. The engine records a reveal's whole gain
  as a ``gained`` event naming the card; its token gain is taken out of the ability's
  Influence.
- **ability gain**: everything else its own family gained through events naming the
  card: a Conspiracy's reveal beyond its tokens, what its ability gained (Heir, Lord,
  Queen...), the 1 for each card it eliminated (the elimination gain is the eliminating
  card's), what it stole (Spy; Trap), what it gained in reacting to its elimination (an
  Ambush's 4), a Plot's tokens taken as Influence. An ability another card sets off
  counts for the card whose ability it is: a Shapeshifter's copied ability is the
  Shapeshifter's (it acts), a Plot's activations are the Character's.
- **ability gain others**: what other families gained through events naming the card:
  the Queen's bonus to whoever eliminated her; whatever a card gained while another
  family owned it by Bribery.
- **ability loss** / **ability loss others**: Influence its own family / other families
  lost through events naming the card (the Felon; a Spy's or a Trap's victim).

**Eliminated**: the copy was eliminated at least once (the ``eliminated`` event; an
Ambush's or a Trap's victim is discarded, not eliminated). Discarded Intrigues are not
eliminated either.

Outputs in DIR
==============

``cards.csv`` and ``cards.json`` (``{"study": ..., "rows": [...]}``): one row per card
type met, in the registry's order (set by set). A rate whose denominator is 0 is empty
in the CSV and null in the JSON. Intervals are 95%: Wilson score intervals for rates,
the normal interval of the mean for Influence (cut at 0: no gain is below it).

- ``card``, ``name``, ``set``, ``type`` (``character`` or ``intrigue``)
- ``games``: games whose card list held it; ``copies``: copies in those games
- ``dealt``: copies dealt into a hand; ``set_aside``: copies set aside at setup;
  ``kept_back``: copies kept back; ``placed``: copies placed; ``put_face_up``: of those,
  copies put into the queue face up by an ability at least once; ``revealed``: copies
  revealed
- ``placed_rate`` = placed / copies; ``revealed_rate`` = revealed / placed;
  ``kept_back_rate`` = kept_back / dealt
- for each moment M of ``placed``, ``revealed``, ``kept_back``, ``set_aside``:
  ``M_wins`` (outright wins of the copy's family), ``M_shared_wins`` (shared wins),
  ``M_win_rate`` (win share / copies counted at M), ``M_ci_low``, ``M_ci_high``
- ``eliminated``: copies eliminated; ``eliminated_face_down``: of those, copies that
  were face down when eliminated; ``eliminated_rate`` = eliminated / placed,
  ``eliminated_ci_low``, ``eliminated_ci_high``
- ``eliminations``: cards this card type eliminated; ``eliminations_per_placed``
- ``token_gain``: Influence from tokens on revealing it, 1 per token (above);
  ``token_gain_per_revealed``; ``token_gain_per_placed``, its mean per copy placed, with
  ``token_gain_ci_low``, ``token_gain_ci_high``
- ``ability_gain``: its family's ability gain (above); ``ability_gain_per_placed``, its
  mean per copy placed, with ``ability_gain_ci_low``, ``ability_gain_ci_high``
- ``ability_gain_others``, ``ability_loss``, ``ability_loss_others`` (totals, above)
- ``ability_net_per_placed`` = (ability_gain - ability_loss) / placed

``seats.csv`` and ``seats.json``: one row per seat (``by`` = ``seat``: seat ``number`` 1
is the configuration's first family, ``family`` and ``bot`` name it), then one per place
in round 1's turn order (``by`` = ``turn``: ``number`` 1 is the first player of round 1,
2 the next clockwise; the First Player tile then passes on each round, so with 3 families
each place is first player twice, with 4 or 5 some places once only). The first player
is drawn from each game's seed, so seats test the deal and turn order tests the tile.
Columns: ``by``, ``number``, ``family``, ``bot``, ``games``, ``wins`` (outright),
``shared_wins``, ``win_rate`` (win share / games), ``ci_low``, ``ci_high``,
``advantage`` (win_rate - 1 / families), ``mean_score`` (final Influence).

``totals.json``: ``{"study": ..., "totals": ...}``, the raw whole-number totals
(:class:`~oriflamme.study.tally.Tally` ``.to_dict()``: per card type the counters of
:data:`~oriflamme.study.tally.CARD_FIELDS`, shares in 60ths, ``ability_gain_squares`` and
``token_gain_squares`` the sums of each copy's ability gain and token gain squared, for
the intervals of their means; per seat and per turn place ``wins``,
``shared_wins``, ``share``, ``score``), from which every table is computed.

``study`` (in every JSON file): ``games``, ``families``, ``sets``, ``cards`` (the card
list, or how each game draws one), ``variants``, ``bots`` (per seat), ``seeds`` (first
and last), ``where`` (processes, or the Ray cluster and its CPUs), ``seconds`` (playing
time), ``decisions``, ``shared_games`` (games whose win was shared).

Plots (PNG; cards ordered by win rate when placed, highest at the top; beside each bar,
its figure and its count, ``n=``, the copies or games it counts):

- ``win_rates.png``: per card, the win rate when placed, revealed and kept back, with
  their intervals and a dashed line at the fair share (1 / families);
- ``ability_influence.png``: per card, ability gain per copy placed beside the token gain
  per copy placed, each with its interval;
- ``eliminated.png``: per card, the share of copies placed that were eliminated (with
  its interval), the part eliminated face down darker;
- ``seats.png``: win rate by seat and by round 1's turn order, with intervals and the
  fair share.

``summary.md``: what was played, the three strongest and three weakest cards by win rate
when placed with their figures (placed, revealed, kept back, ability gain), whether the
strongest and weakest lie outside the fair share's noise, the card with the most and
least ability Influence and the most eliminated one, seat advantage, and the plots.

The figures measure cards as the chosen bots play them: with random bots, what a card
does when played blindly; with mixed bots, a card's figures mix the bots' strengths.
"""
