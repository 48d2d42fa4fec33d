/**
 * A recorded session ran in other directories than the live one (each rep
 * works in a fresh temporary copy of its fixture): its paths are read as the
 * live session's. The recorded working directory maps to the live one, and
 * so does each directory holding it for as long as the two paths end alike
 * (`<rep dir>/repo`, or `<rep dir>/repo/.worktrees/pad` for a session that
 * starts in a worktree): the rep directory, where redgreen puts the rep's
 * skill and home, maps too, so a skill path in the recorded prompt, a call
 * or a result names the live session's copy.
 */

export type PathMap = readonly (readonly [recorded: string, live: string])[];

export function pathMapOf(recorded: string | undefined, live: string | undefined): PathMap {
  if (recorded === undefined || live === undefined || recorded === live) return [];
  const pairs: [string, string][] = [[recorded, live]];
  const parent = (dir: string): string => dir.replace(/\/[^/]+\/?$/, '');
  const name = (dir: string): string => dir.replace(/\/+$/, '').split('/').pop() ?? '';
  let from = recorded;
  let to = live;
  while (name(from) === name(to) && parent(from) !== '' && parent(to) !== '') {
    from = parent(from);
    to = parent(to);
    if (from === to) break;
    pairs.push([from, to]);
  }
  // Longest first, so the working directory is replaced before the directories holding it.
  return pairs.sort((a, b) => b[0].length - a[0].length);
}

export function remapText(text: string, map: PathMap): string {
  let result = text;
  for (const [recorded, live] of map) result = result.split(recorded).join(live);
  return result;
}

export function remapValue(value: unknown, map: PathMap): unknown {
  if (map.length === 0) return value;
  if (typeof value === 'string') return remapText(value, map);
  if (Array.isArray(value)) return value.map((item) => remapValue(item, map));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, remapValue(item, map)]),
    );
  }
  return value;
}
