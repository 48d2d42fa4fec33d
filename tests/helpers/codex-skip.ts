/**
 * Why a test of the real Codex engine cannot run here, or undefined when it
 * can: the codex backend needs the platform package's binary and a working
 * bubblewrap. The reason is printed, so a skipped run says why.
 */
import { detectSandbox } from '../../harness/sandbox/sandbox.js';
import { locateCodexBinary } from '../../harness/session/codex-home.js';

export async function codexSkipReason(what: string): Promise<string | undefined> {
  const sandbox = await detectSandbox();
  const skip =
    locateCodexBinary() === undefined
      ? '@openai/codex has no binary installed for this platform'
      : sandbox.kind !== 'bubblewrap'
        ? `bubblewrap is not usable here (${sandbox.description})`
        : undefined;
  if (skip !== undefined) process.stdout.write(`${what} skipped: ${skip}\n`);
  return skip;
}
