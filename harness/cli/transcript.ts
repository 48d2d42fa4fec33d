import type { Command } from 'commander';
import { ExitCode, failWithInputError } from './exit.js';

/** `redgreen transcript <file…>`: what redgreen reads from a session's files, before scoring them. */
export function registerTranscriptCommand(program: Command): void {
  program
    .command('transcript')
    .description(
      'show what redgreen reads from one session’s files, for checking them before `redgreen check`: the format ' +
        '(detected from the content; a file in no format read is refused, never misread), whether the session is ' +
        'complete, the models, the tool calls of each seat, the dispatches and resumes, the skills invoked, the final ' +
        'reply and the lines that could not be read. Give the files of one session together (a Claude Code session ' +
        'log and its subagents/agent-*.jsonl, a Codex rollout and its spawned threads’ rollouts), or its directory; ' +
        'a session log named alone brings the subagent logs kept beside it. Exits 0 when the files are read, 2 when ' +
        "they are refused. Needs no model. Formats: Claude Code stream-json and redgreen's transcript.jsonl, Claude " +
        'Code session logs (~/.claude/projects/…/<session>.jsonl), Cursor CLI stream-json, Codex CLI rollouts ' +
        '(~/.codex/sessions/…/rollout-*.jsonl), ATIF v1.4 to v1.7; the README\'s "Transcript formats" says what is ' +
        'read from each and what is not.',
    )
    .argument('<file...>', "the session's transcript file(s) or directory; - reads one from stdin")
    .option('--json', 'print one JSON object (the README lists the fields)')
    .action(async (files: string[], flags: { json?: boolean }) => {
      const { readTranscriptInputs } = await import('../score/transcripts/transcript-input.js');
      const { formatTranscriptSummary, summariseTranscript } = await import(
        '../score/transcripts/transcript-summary.js'
      );
      const read = await readTranscriptInputs(files);
      if (!read.ok) {
        process.exitCode = failWithInputError(read.error);
        return;
      }
      const summary = summariseTranscript(read.value);
      process.stdout.write(
        flags.json === true
          ? `${JSON.stringify(summary, null, 2)}\n`
          : formatTranscriptSummary(summary),
      );
      process.exitCode = ExitCode.ok;
    });
}
