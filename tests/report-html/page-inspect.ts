import { createHash } from 'node:crypto';

/**
 * Reading a built report.html back in tests. Untrusted text is escaped, so
 * every `<…>` sequence left in the page is markup the report wrote itself:
 * these helpers lean on that, and the escaping tests prove it.
 */

/** Every tag in the page, as written. */
export function tagsOf(page: string): string[] {
  return page.match(/<[^>]*>/g) ?? [];
}

/** The attribute names of one tag, read the way a browser tokenises them (quoted values skipped). */
export function attributeNames(tag: string): string[] {
  const body = tag.replace(/^<\/?[^\s/>]+/, '').replace(/\/?>$/, '');
  const names: string[] = [];
  for (const match of body.matchAll(
    /([^\s"'=<>/]+)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?/g,
  )) {
    if (match[1] !== undefined) names.push(match[1].toLowerCase());
  }
  return names;
}

/** Tags carrying an event-handler attribute (`onload=`, `onerror=` …): never allowed. */
export function eventHandlerTags(page: string): string[] {
  return tagsOf(page).filter((tag) => attributeNames(tag).some((name) => name.startsWith('on')));
}

/** The page's Content-Security-Policy, as the browser reads it from the meta tag. */
export function contentSecurityPolicy(page: string): string {
  const match = page.match(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/);
  return (match?.[1] ?? '')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/**
 * References that would make the browser fetch something: any http(s) or
 * protocol-relative URL inside a tag (src, href, xmlns …), and CSS `url(` or
 * `@import` anywhere in markup. URLs inside escaped text are inert and allowed.
 */
export function externalReferences(page: string): string[] {
  const inTags = tagsOf(page).filter((tag) => /(https?:)?\/\/[a-z0-9]/i.test(tag));
  const css = page.match(/url\(|@import/gi) ?? [];
  return [...inTags, ...css];
}

/** The markup of one `<figure id=…>` chart. */
export function figure(page: string, id: string): string {
  const start = page.indexOf(`<figure id="${id}"`);
  if (start < 0) return '';
  return page.slice(start, page.indexOf('</figure>', start));
}

/** Rendered Vega marks of one kind (`point`, `rule mark`, `tick`) inside some markup. */
export function countMarks(markup: string, roleDescription: string): number {
  return markup.split(`aria-roledescription="${roleDescription}"`).length - 1;
}

/** The markup of one rep's `<tbody>` group in the rep table. */
export function repGroup(page: string, repId: string): string {
  const anchor = `rep-${repId.replace(/[^a-z0-9]+/g, '-')}`;
  const start = page.indexOf(`<tbody id="${anchor}"`);
  if (start < 0) return '';
  return page.slice(start, page.indexOf('</tbody>', start));
}

/** The inline scripts' bodies. */
export function inlineScripts(page: string): string[] {
  return [...page.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)].map((match) => match[1] ?? '');
}

export function sha256Base64(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64');
}
