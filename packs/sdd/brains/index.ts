/**
 * The SDD brains the pack brings to the model server: the scripted
 * controllers of the SDD campaigns (each reads its repository, plan and
 * skill from the campaign prompt: prompt-policy.ts), the full-session
 * controllers (full-session.ts), and the seats that answer the subagents a
 * full session dispatches, under any policy (seat-programs.ts).
 */
import type {
  ScriptedBrains,
  ScriptedPolicy,
  Seat,
} from '../../../harness/model-server/policies/policy.js';
import { alwaysRedoPolicy } from './always-redo.js';
import {
  asksHumanPolicy,
  movesOnSilentlyPolicy,
  reopensParkedPolicy,
  reReviewsPolicy,
  resumeCheapModelPolicy,
  sixthRoundPolicy,
} from './calibration-moves.js';
import { echoesTemplatePolicy } from './echoes-template.js';
import { finalReviewerPolicy } from './final-reviewer.js';
import { forensicPolicy } from './forensic.js';
import {
  fixerVariantOf,
  fullAcceptsExtrasPolicy,
  fullControllerFixesPolicy,
  fullControllerPolicy,
  fullFixingReviewerPolicy,
  fullFreshFixerPolicy,
  fullGamingFixerPolicy,
  fullReviewFanoutPolicy,
  fullSessionProgram,
  fullShallowReviewerPolicy,
  fullSkillReaderPolicy,
  isFullSessionPrompt,
  reviewerVariantOf,
} from './full-session.js';
import { literalPolicy } from './literal.js';
import { promptPolicy } from './prompt-policy.js';
import { implementerProgram, reviewerProgram, seatPromptOf } from './seat-programs.js';
import { skillReaderPolicy } from './skill-reader.js';
import { structuralPolicy } from './structural.js';

/** The subagents of a full session: implementers, reviewers and fixers, by their dispatch prompt. */
const fullSessionSeat: Seat = {
  name: 'full-session',
  summary:
    "a full session's implementers, reviewers and fixers (`You are the implementer of Task N (Title).` …); the session's policy picks how thorough a reviewer is and how a fixer applies findings",
  take(request) {
    const seat = seatPromptOf(request.promptText);
    if (seat === undefined) return undefined;
    return {
      key: JSON.stringify(seat),
      program:
        seat.role === 'reviewer'
          ? reviewerProgram(seat, request.promptText, reviewerVariantOf(request.policy))
          : implementerProgram(seat, request.promptText, fixerVariantOf(request.policy)),
    };
  },
};

/**
 * skill-reader plays full-skill-reader on a full session's prompt, so a
 * campaign of every SDD scenario runs its full sessions with the reader it
 * runs its probes with.
 */
const skillReader = promptPolicy(skillReaderPolicy);
const literal = promptPolicy(literalPolicy);

/** Codex CLI's base instructions, which its Responses requests carry as a developer message. */
const CODEX_CONTEXT = /running in the Codex CLI|You are Codex\b/;

/**
 * A planted engine interaction: skill-reader on every engine but Codex CLI,
 * literal on Codex (told apart by the engine's own system text), as a
 * wording that binds one engine and not another would. The two-engine
 * campaign's gates must catch it: GREEN regresses on S2 on Codex only.
 */
const readerExceptOnCodex: ScriptedPolicy = {
  name: 'reader-except-on-codex',
  summary:
    "skill-reader on Claude Code and the messages backend, literal on Codex CLI (read from the engine's system text): a planted engine interaction",
  program: (request) =>
    CODEX_CONTEXT.test(request.conversation.system)
      ? literal.program(request)
      : skillReader.program(request),
  cannotPlay: (request) => skillReader.cannotPlay?.(request),
};

export const sddBrains: ScriptedBrains = {
  policies: [
    literal,
    promptPolicy(forensicPolicy),
    promptPolicy(structuralPolicy),
    promptPolicy(alwaysRedoPolicy),
    {
      ...skillReader,
      cannotPlay: (request) =>
        isFullSessionPrompt(request.promptText) ? undefined : skillReader.cannotPlay?.(request),
      program: (request) =>
        isFullSessionPrompt(request.promptText)
          ? fullSessionProgram(
              'full-skill-reader',
              request.label,
              request.promptText,
              request.offeredTools,
            )
          : skillReader.program(request),
    },
    promptPolicy(finalReviewerPolicy),
    promptPolicy(asksHumanPolicy),
    promptPolicy(sixthRoundPolicy),
    promptPolicy(resumeCheapModelPolicy),
    promptPolicy(movesOnSilentlyPolicy),
    promptPolicy(reopensParkedPolicy),
    fullControllerPolicy,
    fullFreshFixerPolicy,
    fullSkillReaderPolicy,
    fullShallowReviewerPolicy,
    fullAcceptsExtrasPolicy,
    fullFixingReviewerPolicy,
    fullGamingFixerPolicy,
    fullControllerFixesPolicy,
    fullReviewFanoutPolicy,
    promptPolicy(reReviewsPolicy),
    promptPolicy(echoesTemplatePolicy),
    readerExceptOnCodex,
  ],
  seats: [fullSessionSeat],
};
