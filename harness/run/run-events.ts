/** What a campaign run reports while it works; rendered by a progress reporter. */
export type RunEvent =
  | {
      readonly type: 'run-start';
      readonly campaign: string;
      readonly outDir: string;
      readonly model: string;
      readonly scripted: boolean;
      readonly backend: string;
      readonly total: number;
      readonly alreadyDone: number;
      readonly toRun: number;
      readonly concurrency: number;
    }
  | { readonly type: 'rep-start'; readonly id: string; readonly attempt: number }
  | {
      readonly type: 'rep-done';
      readonly id: string;
      readonly attempt: number;
      readonly verdict: 'pass' | 'fail' | 'indeterminate';
      readonly reason: string | undefined;
      readonly toolUses: number;
      readonly costUsd: number | null;
      readonly durationMs: number;
    }
  | { readonly type: 'rep-dropped'; readonly id: string; readonly reason: string }
  | {
      /** `--judge`: the judge's verdict on a rep that just landed, against its checks. */
      readonly type: 'rep-judged';
      readonly id: string;
      readonly verdict: 'pass' | 'fail' | 'unsure' | 'error';
      readonly checks: 'pass' | 'fail' | 'undecided';
      readonly agreement: 'agree' | 'disagree' | 'not-compared';
      /**
       * The judge's verdict on every rubric item, when it differs from `verdict`
       * (its verdict on the items a check also decides, which agreement compares).
       */
      readonly overall?: 'pass' | 'fail' | 'unsure';
      readonly costUsd: number | null;
    }
  | { readonly type: 'stopping'; readonly reason: string }
  | { readonly type: 'notice'; readonly message: string }
  | {
      readonly type: 'run-end';
      /** Rep attempts this run finished (retries and damaged reps run again included). */
      readonly finished: number;
      /** Verdicts of this run's own attempts. */
      readonly thisRun: {
        readonly pass: number;
        readonly fail: number;
        readonly indeterminate: number;
      };
      /** Reps of the schedule (or this shard) the directory records now, of those scheduled (the JSON event's field keeps its old name). */
      readonly recorded: number;
      readonly planned: number;
      /** The directory's verdicts: each recorded rep's newest attempt. */
      readonly pass: number;
      readonly fail: number;
      readonly indeterminate: number;
      readonly missing: number;
      readonly costUsd: number | null;
      readonly elapsedMs: number;
    };

export type RunEventSink = (event: RunEvent) => void;
