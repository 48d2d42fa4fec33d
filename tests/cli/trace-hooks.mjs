/** Module resolve hook for trace-modules.mjs: reports every ES module URL resolved. */
export async function resolve(specifier, context, next) {
  const found = await next(specifier, context);
  process.stderr.write(`LOADED ${found.url}\n`);
  return found;
}
