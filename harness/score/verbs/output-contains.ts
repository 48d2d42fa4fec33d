/**
 * `output-contains`: what the session produced matches a pattern, with the
 * case rule stated explicitly. `in` says where to look: the reply, the
 * files the session added or modified (their text as captured at rep
 * time), the shell commands it ran (every seat); default the reply and the
 * files, which is what an eval author means by "the output". The reply is
 * matched as written and with markdown emphasis removed, so both a fence
 * (`` ```mermaid ``) and decorated words (`**Total**`) are found.
 *
 * Found anywhere passes. Not found fails only when every place it looked
 * could be read; a file whose text was not captured (binary, too large), or
 * a transcript with unreadable lines, leaves it undecided, so `not
 * output-contains` never passes on what it could not read.
 */
import { z } from 'zod';
import { type Evidence, fileEntry, required } from '../evidence.js';
import { withoutEmphasis } from '../extractors/language/markdown.js';
import { regexSource } from '../param-types.js';
import { stringField } from '../tool-call.js';
import { defineVerb, listed } from '../verb.js';

export const OUTPUT_PLACES = ['reply', 'files', 'commands'] as const;
type Place = (typeof OUTPUT_PLACES)[number];

const QUOTE = 80;

/** The texts to search, each named for a detail, and what could not be read. */
function textsIn(
  places: readonly Place[],
  evidence: Evidence,
): { texts: { where: string; text: string }[]; unread: string[] } {
  const texts: { where: string; text: string }[] = [];
  const unread: string[] = [];
  if (places.includes('reply')) {
    const reply = required(evidence.reply, 'reply').text;
    texts.push(
      { where: 'the reply', text: reply },
      { where: 'the reply', text: withoutEmphasis(reply) },
    );
  }
  if (places.includes('files')) {
    const before = required(evidence.before, 'before').files;
    const after = required(evidence.after, 'after').files;
    const contents = required(evidence.contents, 'contents');
    for (const [path, entry] of Object.entries(after)) {
      if (fileEntry(before, path)?.sha256 === entry.sha256) continue;
      const captured = fileEntry(contents, path);
      if (captured === undefined || 'omitted' in captured) unread.push(path);
      else texts.push({ where: path, text: captured.text });
    }
  }
  if (places.includes('commands')) {
    const transcript = required(evidence.transcript, 'transcript');
    for (const call of transcript.calls) {
      const command = call.name === 'Bash' ? stringField(call.input, 'command') : undefined;
      if (command !== undefined) texts.push({ where: 'a command', text: command });
    }
    if (transcript.partial === true) unread.push('unreadable transcript lines');
  }
  return { texts, unread };
}

export const outputContains = defineVerb({
  summary:
    'the reply, a file the session added or modified, or a command it ran matches a regular expression (in: reply, files, commands; default reply and files)',
  params: z
    .object({
      pattern: regexSource,
      caseSensitive: z.boolean(),
      in: z
        .array(z.enum(OUTPUT_PLACES))
        .min(1)
        .refine((places) => new Set(places).size === places.length, 'name each place once')
        .default(['reply', 'files']),
    })
    .strict(),
  reads: (params) => [
    ...(params.in.includes('reply') ? (['reply'] as const) : []),
    ...(params.in.includes('files') ? (['before', 'after', 'contents'] as const) : []),
    ...(params.in.includes('commands') ? (['transcript'] as const) : []),
  ],
  run: (params, evidence) => {
    const regex = new RegExp(params.pattern, params.caseSensitive ? 'm' : 'im');
    const { texts, unread } = textsIn(params.in, evidence);
    const places = params.in.join(', ');
    for (const { where, text } of texts) {
      const found = regex.exec(text);
      if (found !== null) {
        const quote = found[0].length > QUOTE ? `${found[0].slice(0, QUOTE)}…` : found[0];
        return { outcome: 'pass', observed: quote, detail: `${where} matches /${params.pattern}/` };
      }
    }
    if (unread.length > 0) {
      return {
        outcome: 'undecided',
        observed: 'no match in what could be read',
        detail: `no match for /${params.pattern}/ in the ${places} it could read, and ${listed(unread)} could not be read`,
      };
    }
    return {
      outcome: 'fail',
      observed: 'no match',
      detail: `nothing in the ${places} matches /${params.pattern}/`,
    };
  },
});
