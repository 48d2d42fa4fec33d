import type { InputError } from '../lib/input-error.js';
import { ok, type Result } from '../lib/result.js';
import { type Invocation, readCampaignRecord } from './campaign-record.js';

/** The invocation a results directory was started with, so `--resume <dir>` needs no other flags. */
export async function readRecordedInvocation(dir: string): Promise<Result<Invocation, InputError>> {
  const record = await readCampaignRecord(dir, '--resume');
  return record.ok ? ok(record.value.invocation) : record;
}
