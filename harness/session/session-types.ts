import type { EventSelector } from '../score/event-selector.js';
import type { ScriptedUser } from '../score/scripted-user.js';
import type { StopMode } from '../score/stop-mode.js';
import type { CapturedDispatch } from './dispatch-capture.js';
import type { InstalledLibrary } from './installed-library.js';
import type { ProjectInstruction } from './project-instructions.js';
import type { ProjectSkill } from './project-skills.js';
import type { Limits } from './session-limits.js';
import type { BackendName, ToolChanges } from './session-tool-table.js';
import type { TranscriptSink } from './transcript-sink.js';

/** What a model's usage costs, in USD, or null when the model has no price. */
export type PriceModel = (modelId: string, usage: TokenUsage) => number | null;

/** Milliseconds on some monotonic clock. */
export type Clock = () => number;

export type { CapturedDispatch } from './dispatch-capture.js';

/** Where a session's model calls go, and how the model is named in results. */
export interface ModelEndpoint {
  /** The model id sent in requests (`scripted:<policy>` for the local model server). */
  readonly id: string;
  /** Messages API base URL; undefined means the SDK's default (the real API). */
  readonly baseUrl: string | undefined;
  /** The key sent to that endpoint. Never written anywhere, never given to a tool. */
  readonly apiKey: string;
  /** True when the brain is a scripted policy on redgreen's local model server. */
  readonly scripted: boolean;
  /** How the key is sent to a Messages API endpoint: `x-api-key` (default) or `Authorization: Bearer`. */
  readonly auth?: 'api-key' | 'bearer';
  /** Extra request headers an endpoint profile asks for (never a credential). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Claude on Bedrock or Vertex through the Claude Code engine's own provider switches. */
  readonly provider?: EngineProvider;
}

/** Where the requests of a model playing the user go (played-user.ts). The key is never written anywhere. */
export interface UserModelEndpoint {
  readonly id: string;
  readonly baseUrl: string | undefined;
  readonly apiKey: string;
  readonly auth?: 'api-key' | 'bearer';
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A cloud provider the Claude Code engine reaches itself (the messages
 * backend cannot): its region (and Vertex project), and credential
 * variables passed to the engine under their own names. `apiKey` then holds
 * the Bedrock API key (AWS_BEARER_TOKEN_BEDROCK) or the path of the Google
 * credentials file (GOOGLE_APPLICATION_CREDENTIALS), or is empty.
 */
export interface EngineProvider {
  readonly kind: 'bedrock' | 'vertex';
  readonly region: string;
  readonly project: string | undefined;
  readonly passEnv: Readonly<Record<string, string>>;
}

/** Everything one fresh session needs. Paths are absolute. */
export interface SessionRequest {
  /** `<arm>/<scenario>-rep<N>`; also sent to the local model server as the session key. */
  readonly repId: string;
  readonly prompt: string;
  /**
   * Its own copy of the fixture root, mounted read-write: the repository and
   * every checkout it holds (worktrees inside it, or beside it when the root
   * is the repository's parent).
   */
  readonly fixtureRepo: string;
  /**
   * The session's working directory when it is not `fixtureRepo`: a linked
   * worktree that the scenario's recipe names as its `start`, or the
   * repository inside a fixture root that holds worktrees beside it.
   */
  readonly startDir?: string | undefined;
  /** The read-only skill copy the prompt points at (a library arm: the installed plugin directory). */
  readonly skillDir: string;
  /** A private directory for this session's HOME, config and TMPDIR. */
  readonly privateDir: string;
  /**
   * A short private directory for the engine's runtime files (its messaging
   * socket, whose path must fit in 103 bytes); the session's TMPDIR when absent.
   */
  readonly runtimeDir?: string;
  readonly model: ModelEndpoint;
  readonly limits: Limits;
  /**
   * How the session ends. `report`: the model works, then replies.
   * `first-dispatch`: the controller keeps its subagent tool, and its first
   * dispatch (`Agent`, `Task` or `SendMessage`) is recorded, refused with a fixed
   * neutral result, and ends the session without another model request.
   */
  readonly stop: StopMode;
  /**
   * An event stop (`stop: { at: … }`, harness/score/stop-mode.ts): the first
   * controller call that makes an event one of these selectors picks is
   * captured, refused with a neutral result, and ends the session, as a
   * first dispatch is. `stop` is then `report`.
   */
  readonly stopAt?: readonly EventSelector[] | undefined;
  /** A library arm's installed skills library (plugin directory, skills, hook outputs). */
  readonly library?: InstalledLibrary | undefined;
  /** The project instruction files the scenario names, given as the engine gives a project's CLAUDE.md. */
  readonly instructions?: readonly ProjectInstruction[] | undefined;
  /** The fixture's project skills the scenario opts in to (`claudeDir: [skills]`), offered through the Skill tool. */
  readonly projectSkills?: readonly ProjectSkill[] | undefined;
  /** The scenario's additions to and removals from the backend's tools (session-tool-table.ts). */
  readonly tools?: ToolChanges | undefined;
  /**
   * `stop: complete` only: the scenario's scripted user, who answers the
   * controller's questions (harness/score/scripted-user.ts); the defaults
   * when absent.
   */
  readonly user?: ScriptedUser | undefined;
  /**
   * The model that plays the user (`user.played`, played-user.ts), chosen
   * by the run (userModelFor: a live run only); absent: the script plays.
   */
  readonly userModel?: UserModelEndpoint | undefined;
  readonly transcript: TranscriptSink;
  /** Receives the engine's diagnostic output (stderr), for the rep's engine.log. */
  readonly engineLog: (chunk: string) => void;
  readonly signal: AbortSignal;
  /**
   * Prices a reply of a model (the session's, or a seat's tier model) with the
   * rep's pricing, for the cost limits; absent: no reply is priced (a scripted
   * model), so the cost limits do not apply.
   */
  readonly price?: PriceModel;
  /** The clock the per-seat time limit reads (default: performance.now); tests inject one. */
  readonly clock?: Clock;
}

/** Why a session produced no decision that can be scored. */
export type IndeterminateStage = 'api' | 'engine' | 'timeout' | 'limit' | 'aborted' | 'reply';

export interface TokenUsage {
  readonly input: number;
  readonly output: number;
  readonly cacheWrite: number;
  readonly cacheRead: number;
}

export interface SessionOutcome {
  readonly status:
    | { readonly kind: 'completed' }
    | {
        readonly kind: 'indeterminate';
        readonly stage: IndeterminateStage;
        readonly reason: string;
      };
  /** The session's final reply text, verbatim, when it produced one. */
  readonly finalReply: string | null;
  /**
   * How the session ended, in the backend's own words (result subtype,
   * stop_reason), or `first-dispatch` when it ended at a captured dispatch.
   */
  readonly stopReason: string | null;
  /** The controller's first dispatch, when `stop: first-dispatch` captured one; else null. */
  readonly capturedDispatch: CapturedDispatch | null;
  readonly turns: number;
  readonly usage: TokenUsage | null;
  /**
   * The same usage split by the model each reply named, when the backend
   * knows it: a full session's seats may run on other tiers than the
   * controller, and each model is priced at its own rates.
   */
  readonly usageByModel?: Readonly<Record<string, TokenUsage>> | undefined;
  /** The model id as the engine / API reported it back. */
  readonly modelReported: string | null;
  /** The engine's own cost estimate, when it gives one (Claude Code does). */
  readonly engineCostEstimateUsd: number | null;
  /** Engine name and version, e.g. `claude-code 2.1.332` or `redgreen-messages @anthropic-ai/sdk 1.14.0`. */
  readonly engine: string;
}

export interface SessionBackend {
  readonly name: BackendName;
  run(request: SessionRequest): Promise<SessionOutcome>;
}
