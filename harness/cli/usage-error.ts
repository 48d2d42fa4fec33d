/**
 * A command line commander could not parse, said the way redgreen says every
 * bad input: one line, `redgreen: ` first, what is wrong with which input
 * (commander's own words, with its "did you mean" when it has one), and
 * where the usage is.
 */
export function usageErrorLine(message: string, command: string | undefined): string {
  const text = message
    .replace(/^error:\s*/, '')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\.\s*$/, '')
    .trim();
  const help = command === undefined ? 'redgreen --help' : `redgreen ${command} --help`;
  return `redgreen: ${text}; see \`${help}\` for usage\n`;
}
