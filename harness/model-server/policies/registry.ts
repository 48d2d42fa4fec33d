/**
 * The scripted policies the server knows, by name, and the seats that answer
 * subagents: the core's own general policies (a scripted user, a key canary)
 * and what the installed packs brought (registerScriptedBrains, called once
 * per pack by the composition root's installation, before any request).
 * Lists are read when asked, so they hold every installed pack's names.
 * The order: each pack's policies in installation order, then the core's.
 */
import { asksUserReplyPolicy, asksUserToolPolicy } from './asks-user.js';
import { fullEnvDumpPolicy } from './env-dump.js';
import { followsTurnsPolicy } from './follows-turns.js';
import { playsUserPolicy } from './plays-user.js';
import type { ScriptedBrains, ScriptedPolicy, Seat } from './policy.js';

const CORE_POLICIES: readonly ScriptedPolicy[] = [
  asksUserToolPolicy,
  asksUserReplyPolicy,
  followsTurnsPolicy,
  playsUserPolicy,
  fullEnvDumpPolicy,
];

const registered: ScriptedPolicy[] = [];
const registeredSeats: Seat[] = [];

/** Adds a pack's policies and seats; a name the server already knows is a bug. */
export function registerScriptedBrains(brains: ScriptedBrains): void {
  for (const policy of brains.policies) {
    if (policyByName(policy.name) !== undefined) {
      throw new Error(`two scripted policies are named ${policy.name}`);
    }
  }
  registered.push(...brains.policies);
  registeredSeats.push(...(brains.seats ?? []));
}

/** Every scripted policy, in listing order. */
export function scriptedPolicies(): readonly ScriptedPolicy[] {
  return [...registered, ...CORE_POLICIES];
}

/** The names `scripted:<policy>` takes, in listing order. */
export function policyNames(): readonly string[] {
  return scriptedPolicies().map((policy) => policy.name);
}

export function isPolicyName(name: string): boolean {
  return policyByName(name) !== undefined;
}

export function policyByName(name: string): ScriptedPolicy | undefined {
  return (
    registered.find((policy) => policy.name === name) ??
    CORE_POLICIES.find((policy) => policy.name === name)
  );
}

/** The seats, in registration order: a subagent's request is answered by the first that takes it. */
export function seats(): readonly Seat[] {
  return registeredSeats;
}
