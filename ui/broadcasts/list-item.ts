// One broadcast in the broadcasts page's list (docs/broadcasts.md): its name and status, what it
// sends and when, its counts as the server reads them, the reasons recipients were skipped, and a
// Cancel button while it is scheduled or running. Everything written goes through textContent.
import type { RecipientCounts } from '../../src/broadcasts/model.js';
import type { Message } from './compose';

export interface Broadcast {
  BroadcastId: string;
  Name: string;
  Status: string;
  Behaviour: string | null;
  Message: Message | null;
  At: string;
  NextRunAt: string | null;
  Repeat: { Every: string } | null;
  Run: number;
  Error: string | null;
  Counts: RecipientCounts;
}

export const when = (iso: string) => new Date(iso).toLocaleString();

/** One broadcast as the list shows it: name, status, when, its counts live, and Cancel while it can still be cancelled. */
export function broadcastItem(b: Broadcast, onCancel: (b: Broadcast) => void): HTMLLIElement {
  const li = document.createElement('li');
  li.className = 'item';
  const head = document.createElement('div');
  head.className = 'item-head';
  const title = document.createElement('h3');
  title.textContent = b.Name;
  const badge = document.createElement('span');
  badge.className = `badge ${b.Status}`;
  badge.textContent = b.Status;
  head.append(title, badge);
  const info = document.createElement('p');
  info.className = 'when';
  const next = b.NextRunAt ? ` · next ${when(b.NextRunAt)}` : '';
  const what = b.Message ? `Message "${b.Message.Text.length > 60 ? `${b.Message.Text.slice(0, 60)}…` : b.Message.Text}"` : (b.Behaviour ?? '');
  info.textContent = `${what} · ${b.Repeat ? `every ${b.Repeat.Every} from` : 'at'} ${when(b.At)}${next} · run ${b.Run}${b.Error ? ` · ${b.Error}` : ''}`;
  const counts = document.createElement('dl');
  counts.className = 'counts';
  const reasons = Object.entries(b.Counts.Reasons)
    .map(([r, n]) => `${r} ${n}`)
    .join(', ');
  for (const [label, value] of [
    ['Audience', b.Counts.Audience],
    ['Sent', b.Counts.Sent],
    ['Delivered', b.Counts.Delivered],
    ['Failed', b.Counts.Failed],
    ['Skipped', b.Counts.Skipped],
    ['Clicked', b.Counts.Clicked],
  ] as const) {
    const pair = document.createElement('div');
    const dt = document.createElement('dt');
    dt.textContent = label;
    const dd = document.createElement('dd');
    dd.textContent = String(value);
    pair.append(dt, dd);
    counts.append(pair);
  }
  li.append(head, info, counts);
  if (reasons) {
    const why = document.createElement('p');
    why.className = 'hint';
    why.textContent = `Reasons: ${reasons}`;
    li.append(why);
  }
  if (b.Status === 'scheduled' || b.Status === 'running') {
    const cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.className = 'danger';
    cancel.textContent = 'Cancel';
    cancel.setAttribute('aria-label', `Cancel ${b.Name}`);
    cancel.addEventListener('click', () => onCancel(b));
    li.append(cancel);
  }
  return li;
}
