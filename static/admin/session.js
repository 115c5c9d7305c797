// The admin client's token (kept apart from a player's), its HTTP calls and paged lists.
import { html, useState, useEffect } from '../ui.js';
import { t } from '../i18n.js';
import { api } from '../api.js';

export const TOKEN_KEY = 'rummy.admin.token';

/** `api` (static/api.js) with the admin's token: GET unless `method` says otherwise. */
export const adminApi = (path, options = {}) => api(path, { ...options, token: localStorage.getItem(TOKEN_KEY) });

export const fmtDate = (iso) => (iso ? new Date(iso).toLocaleString() : '\u2014');

/** One page of `size` rows of a list the server pages by `limit` and `offset`: the rows (under
 * `field` in its answer), an error, and the offset to move with `Pager`. */
export function usePage(path, field, size) {
  const [offset, setOffset] = useState(0);
  const [list, setList] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    adminApi(`${path}?limit=${size}&offset=${offset}`).then((d) => setList(d[field]), setError);
  }, [offset]);
  return { list, error, offset, setOffset, size };
}

/** Newer and Older, for a list from `usePage`. */
export function Pager({ page }) {
  const { list, offset, setOffset, size } = page;
  return html`<div class="row">
    <button type="button" class="btn small" disabled=${offset === 0}
            onClick=${() => setOffset(Math.max(0, offset - size))}>${t('admin.newer')}</button>
    <button type="button" class="btn small" disabled=${!list || list.length < size}
            onClick=${() => setOffset(offset + size)}>${t('admin.older')}</button>
  </div>`;
}
