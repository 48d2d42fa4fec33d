/**
 * What each expectation becomes. Every expectation is a judge rubric item;
 * one that states something checkable in a form recognised here also gets a
 * deterministic check the judge then shadows, and one about the session's
 * tool calls gets the matching transcript check. The rest are decided by the
 * judge alone (a `judged` check). Nothing is half-checked: an expectation
 * becomes a check only when the check decides all of what it says ("the
 * file exists and parses as BPMN" stays with the judge).
 *
 * Recognised (English statements, whole sentences; machine forms always):
 * - a file exists: "`report.json` exists", "creates `notes.md`";
 * - a file holds a string: "`notes.md` contains \"Hello\"";
 * - the reply or output holds (or lacks) a string: "the reply contains
 *   'total'", "the output does not mention \"TODO\""; the small language
 *   `contains 'x' or contains 'y'`, `does not contain 'z'`;
 * - a command succeeds: "`npm test` passes", "running `make` exits 0";
 * - a skill was used or not: "uses the `pdf` skill", "the pdf skill is not
 *   loaded";
 * - a command was (not) run, or run before another: "runs `pytest`",
 *   "runs `probe.py` on the file", "runs `lint` before `commit`";
 * - patterns (`must_have`, typed patterns, `regex`), literal checks,
 *   code-block counts and commands, as their forms say.
 */
import type { Expectation } from './expectation-forms.js';

export type DecidedBy = 'check' | 'transcript' | 'judge';

export interface CompiledExpectation {
  /** The post check's id (and the rubric item's key). */
  readonly checkId: string;
  readonly expectation: Expectation;
  readonly decidedBy: DecidedBy;
  /** The check as a scenario file holds it (with its id). */
  readonly check: Readonly<Record<string, unknown>>;
  /** The rubric item's words. */
  readonly rubric: string;
  /** Why it became what it became, for `evals lint`. */
  readonly why: string;
}

/** A literal as a regular expression. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

type Check = Record<string, unknown>;

const QUOTED = String.raw`(?:\x60([^\x60]+)\x60|"([^"]+)"|'([^']+)'|\u201c([^\u201d]+)\u201d|\u2018([^\u2019]+)\u2019)`;
/** A path as a statement names it: in backticks or quotes, or bare with a file extension or a slash. */
const PATH = String.raw`(?:\x60([\w./-]+)\x60|"([\w./-]+)"|'([\w./-]+)'|((?:[\w-]+/)*[\w-]+\.[A-Za-z0-9]{1,8}|(?:[\w.-]+/)+[\w.-]+))`;
const ACTOR = String.raw`(?:(?:the |it )?(?:agent|assistant|model|claude|session|skill|response)\s+)?`;

function first(found: RegExpExecArray, from: number, count: number): string | undefined {
  for (let index = from; index < from + count; index += 1) {
    const value = found[index];
    if (value !== undefined) return value;
  }
  return undefined;
}

function sentence(text: string): string {
  return text
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/[.!。]+$/, '');
}

function safePath(value: string): boolean {
  return !value.startsWith('/') && !value.split('/').some((part) => part === '..' || part === '');
}

const outputIn = (target: 'reply' | 'output' | 'behaviour'): readonly string[] =>
  target === 'reply' ? ['reply'] : target === 'output' ? ['reply', 'files'] : ['reply', 'commands'];

function negated(check: Check, negate: boolean): Check {
  return negate ? { not: check } : check;
}

/** The small language of `contains 'x' or contains 'y'`, `does not contain 'z'`. */
function dsl(text: string): Check | undefined {
  const term = String.raw`(does not contain|doesn't contain|not contains|contains)\s+${QUOTED}`;
  const whole = new RegExp(String.raw`^${term}(?:\s+(or|and)\s+${term})*$`, 'i');
  if (!whole.test(text)) return undefined;
  const terms = [...text.matchAll(new RegExp(term, 'gi'))].map((found) => {
    const value = first(found, 2, 5) ?? '';
    const check = {
      verb: 'output-contains',
      pattern: escapeRegex(value),
      caseSensitive: true,
      in: ['reply'],
    };
    return negated(check, !/^contains$/i.test(found[1] ?? ''));
  });
  const joins = [...text.matchAll(/\s(or|and)\s/gi)].map((found) => (found[1] ?? '').toLowerCase());
  if (terms.length === 1) return terms[0];
  if (new Set(joins).size > 1) return undefined;
  return { [joins[0] === 'and' ? 'all-of' : 'any-of']: terms };
}

interface Recognised {
  readonly check: Check;
  readonly decidedBy: 'check' | 'transcript';
  readonly why: string;
}

/** A statement in one of the recognised English forms, as a check; undefined when it is not one. */
export function recogniseStatement(raw: string): Recognised | undefined {
  const text = sentence(raw);
  const language = dsl(text);
  if (language !== undefined) {
    return {
      check: language,
      decidedBy: 'check',
      why: "the reply is searched for the quoted text (the file's own small language: contains / does not contain)",
    };
  }
  const notWord = String.raw`(?:does not|doesn't|do not|don't|never)`;

  // A file exists.
  let found = new RegExp(
    String.raw`^(?:the )?(?:(?:output|new|generated|resulting) )?(?:file )?${PATH} (?:file )?(?:exists|is created|was created|is written|was written|is saved|is produced)$`,
    'i',
  ).exec(text);
  found ??= new RegExp(
    String.raw`^${ACTOR}(?:creates?|writes?|saves?|produces?|generates?|outputs?) (?:a |an |the )?(?:new )?(?:file )?(?:called |named )?${PATH}$`,
    'i',
  ).exec(text);
  if (found !== null) {
    const file = first(found, 1, 4);
    if (file !== undefined && safePath(file)) {
      return {
        check: { verb: 'file-exists', path: file },
        decidedBy: 'check',
        why: `a file the statement names exists in the work tree after the session (${file})`,
      };
    }
  }

  // A file holds a string.
  found = new RegExp(
    String.raw`^(?:the )?(?:file )?${PATH} (?:contains|includes|has) (?:the (?:text|string|line|word|phrase) )?${QUOTED}$`,
    'i',
  ).exec(text);
  if (found !== null) {
    const file = first(found, 1, 4);
    const value = first(found, 5, 5);
    if (file !== undefined && value !== undefined && safePath(file)) {
      return {
        check: {
          verb: 'file-contains',
          path: file,
          pattern: escapeRegex(value),
          caseSensitive: true,
        },
        decidedBy: 'check',
        why: `the file's text after the session holds the quoted string (${file})`,
      };
    }
  }

  // The reply or the output holds, or lacks, a string.
  found = new RegExp(
    String.raw`^(?:the )?(reply|response|answer|final (?:reply|message|answer)|output)( ${notWord})? (?:contains?|includes?|mentions?|says|states?) (?:the (?:text|string|word|phrase|line) )?${QUOTED}$`,
    'i',
  ).exec(text);
  if (found !== null) {
    const value = first(found, 3, 5) ?? '';
    const where = /^output$/i.test(found[1] ?? '') ? 'output' : 'reply';
    return {
      check: negated(
        {
          verb: 'output-contains',
          pattern: escapeRegex(value),
          caseSensitive: true,
          in: outputIn(where),
        },
        found[2] !== undefined,
      ),
      decidedBy: 'check',
      why: `the ${where === 'output' ? 'reply and the files the session wrote are' : 'reply is'} searched for the quoted text`,
    };
  }

  // A command succeeds.
  found =
    /^(?:running )?`([^`]+)` (?:succeeds|passes|exits (?:with )?(?:0|zero|status 0|code 0)|runs (?:cleanly|without errors?))$/i.exec(
      text,
    );
  if (found !== null && found[1] !== undefined) {
    return {
      check: { verb: 'command-succeeds', command: found[1] },
      decidedBy: 'check',
      why: "the command is run in the work tree after the session, in the tools' sandbox",
    };
  }

  // A skill was used, or not.
  const skillName = String.raw`(?:\x60([\w:.-]+)\x60|"([\w:.-]+)"|([\w:.-]+))`;
  const used = new RegExp(
    String.raw`^${ACTOR}(${notWord} )?(?:uses?|loads?|invokes?|triggers?|activates?|reads?|calls?) (?:the )?${skillName} skill$`,
    'i',
  ).exec(text);
  const passive = new RegExp(
    String.raw`^(?:the )?${skillName} skill is( not|n't)? (?:used|loaded|invoked|triggered|activated)$`,
    'i',
  ).exec(text);
  const skill =
    used !== null
      ? { name: first(used, 2, 3), negate: used[1] !== undefined }
      : passive !== null
        ? { name: first(passive, 1, 3), negate: passive[4] !== undefined }
        : undefined;
  if (skill?.name !== undefined) {
    return {
      check: {
        verb: skill.negate ? 'skill-not-invoked' : 'skill-invoked',
        skill: skill.name,
        form: 'any',
      },
      decidedBy: 'transcript',
      why: `the transcript shows the ${skill.name} skill ${skill.negate ? 'never ' : ''}loaded (the Skill tool, or a read of its SKILL.md)`,
    };
  }

  // A command was run before another.
  const command = String.raw`(?:\x60([^\x60]+)\x60|((?:[\w.-]+/)*[\w.-]+\.(?:py|sh|js|mjs|cjs|ts|rb|pl)))`;
  found = new RegExp(
    String.raw`^${ACTOR}runs? ${command}(?: (?:on|with|against|for|over) [^,;]+?)? before (?:running )?${command}$`,
    'i',
  ).exec(text);
  if (found !== null) {
    const before = first(found, 1, 2);
    const after = first(found, 3, 2);
    if (before !== undefined && after !== undefined) {
      return {
        check: {
          verb: 'order',
          first: {
            event: 'tool',
            tool: 'Bash',
            input: { command: escapeRegex(commandWord(before)) },
          },
          then: {
            event: 'tool',
            tool: 'Bash',
            input: { command: escapeRegex(commandWord(after)) },
          },
          ifThenAbsent: 'undecided',
        },
        decidedBy: 'transcript',
        why: `the transcript shows a command with ${commandWord(before)} before one with ${commandWord(after)} (undecided when the second never ran)`,
      };
    }
  }
  // A command was (not) run: a quoted command, or a script named after a few words of its runner
  // (`uv run python scripts/probe.py`), with the options it is given; anything more the sentence
  // says (what it runs on, a second step) is more than a check decides, so the judge keeps it.
  const options = String.raw`((?:\s+-[\w-]+(?:[= ](?!-)[\w./:=-]+)?)*)`;
  found = new RegExp(
    String.raw`^${ACTOR}(${notWord} )?(?:runs?|executes?|calls?|invokes?) (?:[\w.-]+ ){0,4}?${command}${options}$`,
    'i',
  ).exec(text);
  if (found !== null) {
    const ran = first(found, 2, 2);
    if (ran !== undefined) {
      const word = commandWord(ran);
      const args = (found[4] ?? '')
        .trim()
        .split(/\s+/)
        .filter((part) => part !== '');
      const pattern = [word, ...args].map(escapeRegex).join(String.raw`\s+`);
      const negate = found[1] !== undefined;
      return {
        check: {
          verb: negate ? 'tool-not-called' : 'tool-called',
          tool: 'Bash',
          input: { command: pattern },
        },
        decidedBy: 'transcript',
        why: `the transcript shows ${negate ? 'no' : 'a'} shell command with ${[word, ...args].join(' ')}`,
      };
    }
  }
  return undefined;
}

/** What a command check looks for: a script's file name, or the command as quoted. */
function commandWord(command: string): string {
  const script = /(?:^|[\s/])([\w.-]+\.(?:py|sh|js|mjs|cjs|ts|rb|pl))\b/.exec(command);
  return script?.[1] ?? command.trim();
}

function shellJoin(argv: readonly string[]): string {
  return argv
    .map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replace(/'/g, `'\\''`)}'`))
    .join(' ');
}

/** One expectation as a post check and a rubric item. */
export function compileExpectation(checkId: string, expectation: Expectation): CompiledExpectation {
  const base = { checkId, expectation, rubric: expectation.text };
  const judged = (why: string): CompiledExpectation => ({
    ...base,
    decidedBy: 'judge',
    check: { id: checkId, verb: 'judged', item: checkId },
    why,
  });
  const form = expectation.form;
  switch (form.kind) {
    case 'judge':
      return judged(`the author marks it for a judge (${expectation.shape})`);
    case 'literal':
      return {
        ...base,
        decidedBy: 'check',
        check: {
          id: checkId,
          ...negated(
            {
              verb: 'output-contains',
              pattern: escapeRegex(form.value),
              caseSensitive: true,
              in: ['reply'],
            },
            form.negate,
          ),
        },
        why: 'the reply is searched for the literal text',
      };
    case 'code-blocks': {
      const fence = String.raw`^\x60\x60\x60${form.language === undefined ? '' : escapeRegex(form.language)}[^\n]*\n[\s\S]*?^\x60\x60\x60[ \t]*$`;
      return {
        ...base,
        decidedBy: 'check',
        check: {
          id: checkId,
          verb: 'output-contains',
          pattern: `(?:${fence}[\\s\\S]*?){${form.min}}`,
          caseSensitive: true,
          in: ['reply'],
        },
        why: `the reply is searched for ${form.min} fenced code block(s)${form.language === undefined ? '' : ` opened with \`\`\`${form.language}`}`,
      };
    }
    case 'pattern': {
      const pattern = form.ordered
        ? form.patterns.map((part) => `(?:${part})`).join('[\\s\\S]*?')
        : (form.patterns[0] ?? '');
      const where =
        form.target === 'reply'
          ? 'the reply'
          : form.target === 'output'
            ? 'the reply and the files the session wrote'
            : 'the reply and the commands the session ran';
      return {
        ...base,
        decidedBy: 'check',
        check: {
          id: checkId,
          ...negated(
            { verb: 'output-contains', pattern, caseSensitive: true, in: outputIn(form.target) },
            form.negate,
          ),
        },
        why: `${where} ${form.negate ? 'must not match' : 'must match'} ${form.ordered ? 'the passages in order (as literal text)' : 'the regular expression'} (${expectation.shape})`,
      };
    }
    case 'command': {
      const command = shellJoin(form.argv);
      const full =
        form.substring === undefined
          ? command
          : `out=$(${command} 2>&1) && printf '%s' "$out" | grep -qF -- ${shellJoin([form.substring])}`;
      return {
        ...base,
        decidedBy: 'check',
        check: { id: checkId, verb: 'command-succeeds', command: full },
        why: "the command is run in the work tree after the session, in the tools' sandbox",
      };
    }
    case 'statement': {
      const recognised = recogniseStatement(expectation.text);
      if (recognised === undefined) {
        return judged('its words state nothing a check can decide in full: the judge decides it');
      }
      return {
        ...base,
        decidedBy: recognised.decidedBy,
        check: { id: checkId, ...recognised.check },
        why: recognised.why,
      };
    }
  }
}

/**
 * A file check that one of the case's input files already satisfies would
 * pass without the behaviour (the fixture holds the file before the session
 * starts): the judge decides such an expectation instead. `inputText` gives
 * an input's text by its work-tree path (null when it cannot be read as
 * UTF-8: the check then stays, and decides what it can).
 */
export function judgedWhenAnInputSatisfies(
  compiled: CompiledExpectation,
  inputs: ReadonlySet<string>,
  inputText: (workPath: string) => string | null,
): CompiledExpectation {
  const { check } = compiled;
  const file = typeof check.path === 'string' ? check.path : undefined;
  if (compiled.decidedBy !== 'check' || file === undefined) return compiled;
  const isInput = inputs.has(file) || [...inputs].some((input) => input.startsWith(`${file}/`));
  if (!isInput) return compiled;
  let satisfied = false;
  if (check.verb === 'file-exists') satisfied = true;
  else if (check.verb === 'file-contains' && typeof check.pattern === 'string') {
    const text = inputs.has(file) ? inputText(file) : null;
    satisfied =
      text !== null &&
      new RegExp(check.pattern, check.caseSensitive === false ? 'im' : 'm').test(text);
  }
  if (!satisfied) return compiled;
  return {
    ...compiled,
    decidedBy: 'judge',
    check: { id: compiled.checkId, verb: 'judged', item: compiled.checkId },
    why: `${file} is one of the case's input files and already ${check.verb === 'file-exists' ? 'exists' : 'holds the text'} before the session, so a check would pass without the behaviour: the judge decides it`,
  };
}
