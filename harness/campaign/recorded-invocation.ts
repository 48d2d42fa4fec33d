import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { describeError } from '../lib/describe-error.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import { campaignRecordSchema, type Invocation } from './prepare-run.js';
import { resultsLayout } from './results-layout.js';

/** The invocation a results directory was started with, so `--resume <dir>` needs no other flags. */
export async function readRecordedInvocation(dir: string): Promise<Result<Invocation, InputError>> {
  const layout = resultsLayout(dir);
  if (!existsSync(layout.campaignFile) || !existsSync(layout.ledgerFile)) {
    return err(
      inputError(
        '--resume',
        `${dir} is not a redgreen results directory (no campaign.json and ledger.jsonl)`,
        'point it at a directory a run wrote',
      ),
    );
  }
  try {
    const record = campaignRecordSchema.parse(
      JSON.parse(await readFile(layout.campaignFile, 'utf8')),
    );
    return ok(record.invocation);
  } catch (error) {
    return err(
      inputError(
        '--resume',
        `${layout.campaignFile} is unreadable (${describeError(error)})`,
        'start a new run with --out',
      ),
    );
  }
}
