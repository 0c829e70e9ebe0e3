// The flow picture: dagre lays the behaviours and interactions out in ranks (a well-kept layered
// layout, the one many flow editors use), each behaviour's nodes in a box of their own (a compound
// graph), with the hand-over to a person drawn as a node of its own; this file draws the result as
// SVG. Every name is set with textContent, so a hostile name in a bot file is shown, never run.
// The picture is fitted to its box's width, and can be zoomed (buttons, + and - keys) and panned
// (dragging, scrolling, the arrow keys on the focused picture).
import dagre from '@dagrejs/dagre';
import type { BotFlow, FlowNode } from './types';

const SVG = 'http://www.w3.org/2000/svg';
const NODE_HEIGHT = 46;
const CHAR_WIDTH = 7.4;
const MAX_NAME = 28;
const MAX_LABEL = 22;
const HANDOVER = 'handover';
const ZOOMS = [0.25, 0.35, 0.5, 0.7, 1, 1.4, 2];

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function el<K extends keyof SVGElementTagNameMap>(name: K, attrs: Record<string, string | number>, parent?: Element): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  parent?.appendChild(node);
  return node;
}

/** The small line above the name: an interaction's role in its behaviour. */
function caption(node: FlowNode): string {
  if (node.Kind === 'behaviour') return node.Start ? 'behaviour · start' : 'behaviour';
  return [node.Start ? 'start' : '', node.Fallback ? 'fallback' : '', node.HandOver ? 'hands over' : ''].filter(Boolean).join(' · ') || 'interaction';
}

const widthOf = (node: FlowNode) => Math.max(96, Math.max(clip(node.Name, MAX_NAME).length * CHAR_WIDTH, caption(node).length * 6.2) + 28);

type Point = { x: number; y: number };

/** The point halfway along a polyline: where its label goes, so that the label is on its line. */
function midpoint(points: Point[]): Point {
  const lengths = points.slice(1).map((p, i) => Math.hypot(p.x - points[i]!.x, p.y - points[i]!.y));
  let left = lengths.reduce((a, b) => a + b, 0) / 2;
  for (let i = 0; i < lengths.length; i++) {
    if (left <= lengths[i]! && lengths[i]! > 0) {
      const t = left / lengths[i]!;
      return { x: points[i]!.x + (points[i + 1]!.x - points[i]!.x) * t, y: points[i]!.y + (points[i + 1]!.y - points[i]!.y) * t };
    }
    left -= lengths[i]!;
  }
  return points[0]!;
}

/** Whether the segment a→b crosses the inside of `r` (Liang–Barsky clipping). */
function crosses(a: Point, b: Point, r: Box): boolean {
  const [left, right, top, bottom] = [r.x - r.width / 2, r.x + r.width / 2, r.y - r.height / 2, r.y + r.height / 2];
  let t0 = 0;
  let t1 = 1;
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  for (const [p, q] of [
    [-dx, a.x - left],
    [dx, right - a.x],
    [-dy, a.y - top],
    [dy, bottom - a.y],
  ] as const) {
    if (p === 0) {
      if (q <= 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 >= t1) return false;
  }
  return t1 - t0 > 1e-6;
}

/**
 * dagre keeps paths off the boxes of its own ranks, but a path between two behaviours' groups can
 * still cut a box on its way: each such segment is bent round the nearest corner of the box
 * (with a margin), the corner that makes the path shortest without crossing another box.
 */
function around(points: Point[], boxes: Box[]): Point[] {
  const margin = 10;
  const out = [...points];
  for (let guard = 0; guard < 24; guard++) {
    let changed = false;
    for (let i = 0; i + 1 < out.length && !changed; i++) {
      const [a, b] = [out[i]!, out[i + 1]!];
      const hit = boxes.find((r) => crosses(a, b, r));
      if (!hit) continue;
      const corners = [-1, 1].flatMap((sx) => [-1, 1].map((sy) => ({ x: hit.x + sx * (hit.width / 2 + margin), y: hit.y + sy * (hit.height / 2 + margin) })));
      const clear = (c: Point) => !boxes.some((r) => crosses(a, c, r) || crosses(c, b, r));
      const length = (c: Point) => Math.hypot(c.x - a.x, c.y - a.y) + Math.hypot(b.x - c.x, b.y - c.y);
      const best = [...corners].sort((c, d) => Number(clear(d)) - Number(clear(c)) || length(c) - length(d))[0]!;
      out.splice(i + 1, 0, best);
      changed = true;
    }
    if (!changed) break;
  }
  return out;
}

/** the zoom the reader chose, kept while the same flow is drawn again (a resize) */
let zoom: number | null = null;

/** Draws the flow into `host`; returns how many nodes were drawn (the hand-over node not counted). */
export function drawFlow(host: HTMLElement, flow: BotFlow): number {
  host.replaceChildren();
  const graph = new dagre.graphlib.Graph({ multigraph: true, compound: true });
  graph.setGraph({ rankdir: 'TB', nodesep: 28, ranksep: 56, edgesep: 14, marginx: 16, marginy: 16 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const node of flow.Nodes) {
    graph.setNode(node.Id, { width: widthOf(node), height: NODE_HEIGHT });
    // Grouped by behaviour: a behaviour and its interactions share a box.
    const group = `group:${node.Kind === 'behaviour' ? node.Name : node.Behaviour}`;
    if (!graph.hasNode(group)) graph.setNode(group, { paddingTop: 12, paddingBottom: 12, paddingLeft: 12, paddingRight: 12 });
    graph.setParent(node.Id, group);
  }
  const handOvers = flow.Nodes.filter((n) => n.HandOver);
  const edges = [...flow.Edges.map((e) => ({ ...e, Kind: e.Kind as string })), ...handOvers.map((n) => ({ From: n.Id, To: HANDOVER, Kind: HANDOVER, Label: null }))];
  if (handOvers.length > 0) graph.setNode(HANDOVER, { width: 150, height: NODE_HEIGHT });
  edges.forEach((edge, n) => graph.setEdge(edge.From, edge.To, {}, `e${n}`));
  dagre.layout(graph);

  const { width = 0, height = 0 } = graph.graph();
  const fit = Math.min(1, (host.clientWidth - 2) / width);
  const scale = zoom ?? fit;
  const svg = el('svg', { width: Math.ceil(width * scale), height: Math.ceil(height * scale), viewBox: `0 0 ${Math.ceil(width)} ${Math.ceil(height)}`, role: 'img' }, host);
  el('title', {}, svg).textContent =
    `${flow.Nodes.length} behaviours and interactions in ${graph.children().filter((id) => id.startsWith('group:')).length} groups, ${flow.Edges.length} paths between them${handOvers.length ? `, ${handOvers.length} hand-overs to a person` : ''}`;
  const defs = el('defs', {}, svg);
  for (const kind of ['start', 'goTo', 'button', 'success', 'giveUp', 'trigger', HANDOVER]) {
    const marker = el('marker', { id: `arrow-${kind}`, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' }, defs);
    el('path', { d: 'M0,0 L10,5 L0,10 z', class: `arrow arrow-${kind}` }, marker);
  }

  const groups = el('g', { class: 'groups' }, svg);
  for (const id of graph.nodes().filter((n) => n.startsWith('group:'))) {
    const box = graph.node(id) as { x: number; y: number; width: number; height: number };
    const group = el('g', { class: 'group' }, groups);
    el('title', {}, group).textContent = `Behaviour ${id.slice(6)}`;
    el('rect', { x: box.x - box.width / 2, y: box.y - box.height / 2, width: box.width, height: box.height, rx: 14, fill: '#eef2f9', stroke: '#c9d3e4' }, group);
  }

  const lines = el('g', { class: 'edges' }, svg);
  const boxOf = (id: string) => graph.node(id) as Box;
  const allBoxes = [...flow.Nodes.map((n) => n.Id), ...(handOvers.length ? [HANDOVER] : [])];
  edges.forEach((edge, n) => {
    const laid = graph.edge({ v: edge.From, w: edge.To, name: `e${n}` }) as { points: Point[] };
    const others = allBoxes.filter((id) => id !== edge.From && id !== edge.To).map(boxOf);
    laid.points = around(laid.points, others);
    const d = laid.points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
    const group = el('g', { class: `edge edge-${edge.Kind}` }, lines);
    el('path', { d, 'marker-end': `url(#arrow-${edge.Kind})`, ...(edge.Kind === HANDOVER ? { stroke: '#b45309', 'stroke-dasharray': '4 3', fill: 'none' } : {}) }, group);
    if (edge.Label) {
      const at = midpoint(laid.points);
      const text = el('text', { x: at.x.toFixed(1), y: (at.y + 4).toFixed(1), 'text-anchor': 'middle', class: 'edge-label' }, group);
      text.textContent = clip(edge.Label, MAX_LABEL);
    }
  });

  const nodes = el('g', { class: 'nodes' }, svg);
  for (const node of flow.Nodes) drawNode(nodes, graph.node(node.Id), node);
  if (handOvers.length > 0) {
    const laid = graph.node(HANDOVER) as Box;
    const group = el('g', { class: 'node node-handover', transform: `translate(${(laid.x - laid.width / 2).toFixed(1)},${(laid.y - laid.height / 2).toFixed(1)})` }, nodes);
    el('title', {}, group).textContent = 'A person takes the conversation over';
    el('rect', { width: laid.width, height: laid.height, rx: 23, fill: '#fde7c7', stroke: '#b45309' }, group);
    el('text', { x: laid.width / 2, y: 17, 'text-anchor': 'middle', class: 'node-caption' }, group).textContent = 'hand-over';
    el('text', { x: laid.width / 2, y: 35, 'text-anchor': 'middle', class: 'node-name' }, group).textContent = 'A person';
  }
  controls(host, flow, fit, scale);
  return flow.Nodes.length;
}

type Box = { x: number; y: number; width: number; height: number };

function drawNode(parent: Element, laid: Box, node: FlowNode): void {
  const classes = ['node', `node-${node.Kind}`, node.Start ? 'node-start' : '', node.Fallback ? 'node-fallback' : ''].filter(Boolean).join(' ');
  const group = el('g', { class: classes, transform: `translate(${(laid.x - laid.width / 2).toFixed(1)},${(laid.y - laid.height / 2).toFixed(1)})` }, parent);
  el('title', {}, group).textContent = node.Kind === 'behaviour' ? `Behaviour ${node.Name}` : `Interaction ${node.Behaviour} › ${node.Name}${node.HandOver ? ' (hands over to a person)' : ''}`;
  el('rect', { width: laid.width, height: laid.height, rx: node.Kind === 'behaviour' ? 20 : 8 }, group);
  el('text', { x: laid.width / 2, y: 17, 'text-anchor': 'middle', class: 'node-caption' }, group).textContent = caption(node);
  el('text', { x: laid.width / 2, y: 35, 'text-anchor': 'middle', class: 'node-name' }, group).textContent = clip(node.Name, MAX_NAME);
}

/** what the zoom controls act on: the flow drawn last, its scale, and the scale that fits */
const shown = { host: null as HTMLElement | null, flow: null as BotFlow | null, scale: 1, fit: 1 };

function redraw(next: number | null): void {
  zoom = next;
  if (shown.host && shown.flow) drawFlow(shown.host, shown.flow);
}

/** One zoom step in or out from the scale shown. */
function step(by: 1 | -1): void {
  const scale = shown.scale;
  const next = by > 0 ? ZOOMS.find((z) => z > scale + 0.001) : [...ZOOMS].reverse().find((z) => z < scale - 0.001);
  redraw(next ?? scale);
}

/**
 * Zoom buttons above the picture, + and - on the focused picture, and drag to pan: made once per
 * host (the buttons stay, so the one pressed keeps the focus), brought up to date on each draw.
 */
function controls(host: HTMLElement, flow: BotFlow, fit: number, scale: number): void {
  Object.assign(shown, { host, flow, fit, scale });
  let bar = host.previousElementSibling as HTMLElement | null;
  if (!bar?.classList.contains('flow-zoom')) {
    bar = document.createElement('div');
    bar.className = 'flow-zoom';
    bar.setAttribute('role', 'group');
    bar.setAttribute('aria-label', 'Zoom the flow picture');
    const button = (label: string, text: string, action: () => void) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'preset';
      b.textContent = text;
      b.setAttribute('aria-label', label);
      b.addEventListener('click', action);
      return b;
    };
    const percent = document.createElement('span');
    percent.className = 'hint';
    bar.append(
      button('Zoom out', '−', () => step(-1)),
      button('Zoom in', '+', () => step(1)),
      button('Fit to width', 'Fit', () => redraw(null)),
      percent,
    );
    host.before(bar);
    host.addEventListener('keydown', (event) => {
      if (event.key === '+' || event.key === '=') step(1);
      else if (event.key === '-') step(-1);
      else return;
      event.preventDefault();
    });
    let drag: { x: number; y: number; left: number; top: number } | null = null;
    host.addEventListener('pointerdown', (event) => {
      drag = { x: event.clientX, y: event.clientY, left: host.scrollLeft, top: host.scrollTop };
    });
    host.addEventListener('pointermove', (event) => {
      if (!drag || event.buttons === 0) return void (drag = null);
      host.scrollLeft = drag.left - (event.clientX - drag.x);
      host.scrollTop = drag.top - (event.clientY - drag.y);
    });
    host.addEventListener('pointerup', () => void (drag = null));
  }
  // (never disabled: a disabled button would drop the focus of the reader who pressed it)
  bar.lastElementChild!.textContent = `${Math.round(scale * 100)} %`;
}
