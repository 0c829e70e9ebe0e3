// The flow picture: dagre lays the behaviours and interactions out in ranks (a well-kept layered
// layout, the one many flow editors use), and this file draws the result as SVG. Every name is set
// with textContent, so a hostile name in a bot file is shown, never run.
import dagre from '@dagrejs/dagre';
import type { BotFlow, FlowNode } from './types';

const SVG = 'http://www.w3.org/2000/svg';
const NODE_HEIGHT = 46;
/** below this scale the picture is scrolled rather than shrunk: names must stay readable */
const MIN_SCALE = 0.85;
const CHAR_WIDTH = 7.4;
const MAX_NAME = 28;
const MAX_LABEL = 22;

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function el<K extends keyof SVGElementTagNameMap>(name: K, attrs: Record<string, string | number>, parent?: Element): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  parent?.appendChild(node);
  return node;
}

/** The small line above the name: an interaction's behaviour and its role there. */
function caption(node: FlowNode): string {
  const marks = [node.Start ? 'start' : '', node.Fallback ? 'fallback' : ''].filter(Boolean);
  if (node.Kind === 'behaviour') return node.Start ? 'behaviour · start' : 'behaviour';
  return [clip(node.Behaviour ?? '', MAX_NAME), ...marks].join(' · ');
}

const widthOf = (node: FlowNode) => Math.max(96, Math.max(clip(node.Name, MAX_NAME).length * CHAR_WIDTH, caption(node).length * 6.2) + 28);

/** Draws the flow into `host`; returns how many nodes were drawn. */
export function drawFlow(host: HTMLElement, flow: BotFlow): number {
  host.replaceChildren();
  const graph = new dagre.graphlib.Graph({ multigraph: true });
  graph.setGraph({ rankdir: 'TB', nodesep: 28, ranksep: 56, edgesep: 14, marginx: 16, marginy: 16 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const node of flow.Nodes) {
    graph.setNode(node.Id, { width: widthOf(node), height: NODE_HEIGHT });
  }
  flow.Edges.forEach((edge, n) => {
    const label = edge.Label ? clip(edge.Label, MAX_LABEL) : '';
    graph.setEdge(edge.From, edge.To, { width: label.length * 6.4, height: label ? 16 : 0, labelpos: 'c' }, `e${n}`);
  });
  dagre.layout(graph);

  const { width = 0, height = 0 } = graph.graph();
  // A picture a little wider than its box is shrunk to fit; a much wider one scrolls.
  const scale = Math.min(1, host.clientWidth / width);
  const shown = scale >= MIN_SCALE ? scale : 1;
  const svg = el('svg', { width: Math.ceil(width * shown), height: Math.ceil(height * shown), viewBox: `0 0 ${Math.ceil(width)} ${Math.ceil(height)}`, role: 'img' }, host);
  el('title', {}, svg).textContent = `${flow.Nodes.length} behaviours and interactions, ${flow.Edges.length} paths between them`;
  const defs = el('defs', {}, svg);
  for (const kind of ['start', 'goTo', 'button', 'success', 'giveUp', 'trigger']) {
    const marker = el('marker', { id: `arrow-${kind}`, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' }, defs);
    el('path', { d: 'M0,0 L10,5 L0,10 z', class: `arrow arrow-${kind}` }, marker);
  }

  const edges = el('g', { class: 'edges' }, svg);
  flow.Edges.forEach((edge, n) => {
    const laid = graph.edge({ v: edge.From, w: edge.To, name: `e${n}` }) as { points: { x: number; y: number }[]; x?: number; y?: number };
    const d = laid.points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
    const group = el('g', { class: `edge edge-${edge.Kind}` }, edges);
    el('path', { d, 'marker-end': `url(#arrow-${edge.Kind})` }, group);
    if (edge.Label && laid.x !== undefined && laid.y !== undefined) {
      const text = el('text', { x: laid.x, y: laid.y + 4, 'text-anchor': 'middle', class: 'edge-label' }, group);
      text.textContent = clip(edge.Label, MAX_LABEL);
    }
  });

  const nodes = el('g', { class: 'nodes' }, svg);
  for (const node of flow.Nodes) {
    const laid = graph.node(node.Id) as { x: number; y: number; width: number; height: number };
    const classes = ['node', `node-${node.Kind}`, node.Start ? 'node-start' : '', node.Fallback ? 'node-fallback' : ''].filter(Boolean).join(' ');
    const group = el('g', { class: classes, transform: `translate(${(laid.x - laid.width / 2).toFixed(1)},${(laid.y - laid.height / 2).toFixed(1)})` }, nodes);
    el('title', {}, group).textContent = node.Kind === 'behaviour' ? `Behaviour ${node.Name}` : `Interaction ${node.Behaviour} › ${node.Name}`;
    el('rect', { width: laid.width, height: laid.height, rx: node.Kind === 'behaviour' ? 20 : 8 }, group);
    const small = el('text', { x: laid.width / 2, y: 17, 'text-anchor': 'middle', class: 'node-caption' }, group);
    small.textContent = caption(node);
    const name = el('text', { x: laid.width / 2, y: 35, 'text-anchor': 'middle', class: 'node-name' }, group);
    name.textContent = clip(node.Name, MAX_NAME);
  }
  return flow.Nodes.length;
}
