/**
 * The page's only script: shows the rep filter and applies it (verdict, cell,
 * legend value), and opens a rep when a link points at it. Plain DOM, no framework;
 * without it the page is complete, just unfiltered. Its SHA-256 goes into the
 * page's Content-Security-Policy, so no other script can run there.
 */
export const FILTER_SCRIPT = `
(() => {
  'use strict';
  const form = document.getElementById('rep-filter');
  const count = document.getElementById('rep-count');
  if (!(form instanceof HTMLFormElement)) return;
  const groups = Array.from(document.querySelectorAll('tbody.rep'));
  const value = (name) => {
    const field = form.elements.namedItem(name);
    return field instanceof HTMLSelectElement ? field.value : '';
  };
  const apply = () => {
    const verdict = value('verdict');
    const cell = value('cell');
    const legend = value('legend');
    let shown = 0;
    for (const group of groups) {
      const match =
        (verdict === '' || group.dataset.verdict === verdict) &&
        (cell === '' || group.dataset.cell === cell) &&
        (legend === '' || group.dataset.legend === legend);
      group.hidden = !match;
      if (match) shown += 1;
    }
    if (count) count.textContent = shown + ' of ' + groups.length + ' reps shown';
  };
  const openLinkedRep = () => {
    const id = location.hash.slice(1);
    const target = id === '' ? null : document.getElementById(id);
    if (!target || !target.matches('tbody.rep')) return;
    if (target.hidden) {
      form.reset();
      apply();
    }
    const details = target.querySelector('details.rep-detail');
    if (details) details.open = true;
  };
  form.hidden = false;
  form.addEventListener('change', apply);
  form.addEventListener('reset', () => setTimeout(apply, 0));
  window.addEventListener('hashchange', openLinkedRep);
  apply();
  openLinkedRep();
})();
`;
