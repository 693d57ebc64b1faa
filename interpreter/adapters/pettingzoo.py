"""Any game this engine loads, as a PettingZoo AEC environment (turn by turn, with action masks).

    from interpreter.adapters.pettingzoo import env
    e = env("confrontation", mods=["deluxe"])        # or env("risk", players=3, max_actions=3000)
    e.reset(seed=7)                                   # the game of seed 7 (as `lotr-rules play --seed 7`)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are the game's seats (``e.possible_agents``, in seat order).

Observation: ``{"observation": float32 vector, "action_mask": int8 vector}``. The vector is the
fixed tensor of the player's view (interpreter/adapters/common.py); ``observation="information_state"``
adds a hashed bag of the log lines the player has read. Action space: ``Discrete(num_actions)``
(4096 by default): each action id is hashed to a slot, the same in every run and process
(common.py); ``e.action_id(slot)`` and ``e.legal_action_ids()`` say which action a slot is now.

Rewards come at the end: the returns of common.py (1 / -1 / 0 by outcome, or the game's payoffs,
e.g. chips in Kuhn poker). ``max_actions`` truncates a game (every agent truncated, reward 0).

Seeds: ``reset(seed=s)`` plays the game of seed s; ``reset()`` then plays s+1, s+2, ... (from 1
when never seeded). A game's dice and shuffles come from that seed, so a seeded episode replays
exactly (PettingZoo's seed_test).
"""
from __future__ import annotations

try:
    import gymnasium
    import numpy as np
    from pettingzoo import AECEnv
except ImportError as exc:  # pragma: no cover - depends on the extras installed
    raise ImportError("the PettingZoo adapter needs pettingzoo, gymnasium and numpy: "
                      "pip install 'lotr-rules[pettingzoo]'") from exc

from .common import DEFAULT_NUM_ACTIONS, Spec, context

OBS_BOUND = 1e9  # observations are counts and variables; a finite box that holds them all


class LotrEnv(AECEnv):
    metadata = {"render_modes": ["ansi", "human"], "name": "lotr_rules_v0", "is_parallelizable": False}

    def __init__(self, game, mods=(), options=None, players=None, max_actions=0, num_actions=DEFAULT_NUM_ACTIONS,
                 returns="auto", max_return=0.0, observation="observation", render_mode=None):
        super().__init__()
        if observation not in ("observation", "information_state"):
            raise ValueError(f"observation is 'observation' or 'information_state', not {observation!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.spec = Spec.make(game, mods, options, players, max_actions, num_actions, returns, max_return)
        self.ctx = ctx = context(self.spec)
        self.render_mode = render_mode
        self.info_state = observation == "information_state"
        self.metadata = {**self.metadata, "name": f"lotr_{ctx.name_key()}_v0"}
        self.possible_agents = list(ctx.seats)
        enc = ctx.encoder
        self._blocks = enc.info_blocks if self.info_state else enc.blocks
        size = enc.size(self._blocks)
        n = self.spec.num_actions
        self.observation_spaces = {
            a: gymnasium.spaces.Dict({
                "observation": gymnasium.spaces.Box(-OBS_BOUND, OBS_BOUND, (size,), np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (n,), np.int8),
            }) for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(n) for a in self.possible_agents}
        self._next_seed = 1
        self.state_ = None
        self._table = {}
        self.n_actions = 0

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # -- the engine's state
    @property
    def engine_state(self):
        """The engine's GameState of the episode (read it; act through step)."""
        return self.state_

    def legal_action_ids(self) -> dict:
        """{slot: action id} for the agent to act now."""
        return dict(self._table)

    def action_id(self, slot: int) -> str:
        return self._table[int(slot)]

    def slot_of(self, action_id: str) -> int:
        for k, v in self._table.items():
            if v == action_id:
                return k
        raise ValueError(f"{action_id!r} is not legal now")

    # -- AEC API
    def reset(self, seed=None, options=None):
        if seed is not None:
            self._next_seed = int(seed)
        self.seed_ = self._next_seed
        self._next_seed += 1
        self.state_ = self.ctx.new_state(self.seed_)
        self.n_actions = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._refresh()
        self.agent_selection = self.state_.current_player

    def _refresh(self):
        st = self.state_
        self._table = self.ctx.codec.table(a.id for a in st.legal_actions()) if not st.over else {}

    def observe(self, agent):
        enc = self.ctx.encoder
        vec = np.zeros(enc.size(self._blocks), np.float32)
        enc.fill(enc.views(vec, self._blocks), self.state_.view(agent), agent, info=self.info_state)
        mask = np.zeros(self.spec.num_actions, np.int8)
        if agent == self.agent_selection and not (self.terminations.get(agent) or self.truncations.get(agent)):
            mask[list(self._table)] = 1
        return {"observation": vec, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        aid = self._table.get(int(action))
        if aid is None:
            raise ValueError(f"action {action} is not legal for {agent} now (see the action mask)")
        self._cumulative_rewards[agent] = 0
        st = self.state_
        st.apply(aid)
        self.n_actions += 1
        self._clear_rewards()
        if st.over:
            for a, r in zip(self.ctx.seats, self.ctx.returns(st)):
                self.rewards[a] = r
                self.terminations[a] = True
            self._table = {}
        elif self.spec.max_actions and self.n_actions >= self.spec.max_actions:
            for a in self.agents:
                self.truncations[a] = True
            self._table = {}
        else:
            self._refresh()
            self.agent_selection = st.current_player
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode (use 'ansi' or 'human')")
            return None
        st = self.state_
        if st is None:
            text = "(not started: call reset)"
        else:
            lines = [f"{self.ctx.rules.title}, seed {self.seed_}, after {self.n_actions} actions"]
            lines += ["  " + str(x) for x in st.log_for(None)[-5:]]
            if st.over:
                lines.append(f"over: winners {', '.join(st.winners) or 'none'} ({st.victory})")
            else:
                lines.append(f"{st.current_player} to act: " + ", ".join(a.label for a in st.legal_actions()[:12])
                             + (" ..." if len(st.legal_actions()) > 12 else ""))
            text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass


def env(game, **kw) -> LotrEnv:
    """An AEC environment for a game (keyword arguments as LotrEnv's)."""
    return LotrEnv(game, **kw)


def raw_env(game, **kw) -> LotrEnv:
    return LotrEnv(game, **kw)
