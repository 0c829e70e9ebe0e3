// What /docs adds to Swagger UI's page once it has drawn itself: a name for the operation filter
// (Swagger UI gives the input a placeholder only, which is no label). Swagger UI draws with React
// and may draw the filter again, so the name is set whenever the page changes; setting it twice
// changes nothing. The header, logo and guide links are in the page's HTML (src/http/api-docs.ts).

function nameFilter(): void {
  const input = document.querySelector<HTMLInputElement>('.operation-filter-input');
  if (!input || input.getAttribute('aria-label') === 'Filter operations by tag') return;
  input.setAttribute('aria-label', 'Filter operations by tag');
  input.placeholder = 'Filter by tag, e.g. analytics';
}

new MutationObserver(nameFilter).observe(document.body, { childList: true, subtree: true });
nameFilter();
