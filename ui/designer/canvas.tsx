// The flow canvas (loaded on first show: React Flow is most of the page's weight). Behaviours
// are groups, interactions nodes inside them laid out by dagre (already used by the analytics
// picture), paths labelled edges. Dragging from one node's handle to another adds a goTo.
import dagre from '@dagrejs/dagre';
import { Background, Controls, Handle, MarkerType, Position, ReactFlow, useReactFlow, type Edge, type Node, type NodeProps } from '@xyflow/react';
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { pathsOf, placeId, type BotFile, type Place } from './model';
import type { FlowViewProps } from './outline';

const NODE_W = 180;
const NODE_H = 52;
const PAD = 24;
const HEAD = 30;

interface Props extends FlowViewProps {
  onConnect: (from: Place, to: Place) => void;
}

type StepData = { name: string; start: boolean; fallback: boolean; problems: number; heard: boolean };

const Step = memo(function Step({ data, selected }: NodeProps<Node<StepData>>) {
  return (
    <div className={`step${selected ? ' selected' : ''}${data.heard ? ' heard' : ''}${data.problems ? ' has-problem' : ''}`}>
      <Handle type="target" position={Position.Top} />
      <span className="step-name">{data.name}</span>
      <span className="step-marks">
        {data.start && <span className="mark">start</span>}
        {data.fallback && <span className="mark fallback">fallback</span>}
        {data.problems > 0 && <span className="mark problem">⚠ {data.problems}</span>}
      </span>
      <Handle type="source" position={Position.Bottom} />
    </div>
  );
});
const nodeTypes = { step: Step };
const toPlace = (id: string): Place => {
  const [b, i] = id.split('/').map(Number);
  return { b: b!, i: i! };
};

/** A path's label as drawn: a long button text would lay a bar across the whole canvas (the form has it all). */
const LABEL_MAX = 40;
const short = (label: string) => (label.length > LABEL_MAX ? `${label.slice(0, LABEL_MAX - 1)}…` : label);

/** Nodes and edges for the bot: each behaviour laid out alone, behaviours side by side. */
function layout(bot: BotFile, selected: Place | null, heard: Place | null, problemCounts: Map<string, number>) {
  const nodes: Node[] = [];
  const paths = pathsOf(bot);
  let x = 0;
  bot.behaviours.forEach((behaviour, b) => {
    const graph = new dagre.graphlib.Graph();
    graph.setGraph({ rankdir: 'TB', nodesep: 24, ranksep: 48 });
    graph.setDefaultEdgeLabel(() => ({}));
    behaviour.interactions.forEach((_, i) => graph.setNode(String(i), { width: NODE_W, height: NODE_H }));
    for (const p of paths) if (p.from.b === b && p.to.b === b && p.from.i >= 0 && p.from.i !== p.to.i) graph.setEdge(String(p.from.i), String(p.to.i));
    dagre.layout(graph);
    const size = graph.graph();
    const width = Math.max(NODE_W, size.width ?? 0) + PAD * 2;
    const height = Math.max(NODE_H, size.height ?? 0) + PAD * 2 + HEAD;
    nodes.push({
      id: `b${b}`,
      type: 'group',
      position: { x, y: 0 },
      data: { label: behaviour.name },
      style: { width, height },
      className: 'behaviour-group',
      selectable: false,
      ariaLabel: `Behaviour ${behaviour.name}`,
    } as Node);
    nodes.push({
      id: `b${b}-title`,
      parentId: `b${b}`,
      position: { x: 12, y: 6 },
      style: { width: width - 24 },
      data: { label: behaviour.name + (behaviour.start ? ' · start' : '') },
      type: 'default',
      className: 'group-title',
      selectable: false,
      draggable: false,
      focusable: false,
      connectable: false,
    } as Node);
    behaviour.interactions.forEach((interaction, i) => {
      const at = graph.node(String(i));
      const id = placeId({ b, i });
      nodes.push({
        id,
        type: 'step',
        parentId: `b${b}`,
        extent: 'parent',
        position: { x: at.x - NODE_W / 2 + PAD, y: at.y - NODE_H / 2 + PAD + HEAD },
        selected: selected !== null && placeId(selected) === id,
        ariaLabel: `Interaction ${interaction.name} of ${behaviour.name}`,
        data: {
          name: interaction.name,
          start: interaction.start === true,
          fallback: interaction.fallback === true,
          problems: problemCounts.get(id) ?? 0,
          heard: heard !== null && placeId(heard) === id,
        },
      });
    });
    x += width + 60;
  });
  const edges: Edge[] = paths
    .filter((p) => p.from.i >= 0)
    .map((p, n) => ({
      id: `e${n}`,
      source: placeId(p.from),
      target: placeId(p.to),
      label: short(p.label),
      className: `path-${p.kind}`,
      markerEnd: { type: MarkerType.ArrowClosed },
      labelBgPadding: [4, 2] as [number, number],
    }));
  return { nodes, edges };
}

/** The smallest zoom at which names can be read (13px text at 0.6 is about 8px): the first view
 *  never goes below it. When the whole flow does not fit at it (a large bot, or any bot on a
 *  phone), the first view fits the selected interaction's neighbourhood instead, and panning
 *  reaches the rest. */
const READABLE = 0.6;
const NEIGHBOURS = 8;
/** fitView's own default margin around what it fits */
const FIT_PADDING = 0.1;

/** Whether fitting every node into a `size` box keeps them readable. */
function fitsReadably(nodes: Node[], size: { w: number; h: number }): boolean {
  const groups = nodes.filter((n) => n.type === 'group');
  const width = Math.max(...groups.map((g) => g.position.x + Number(g.style?.width ?? 0)), 1);
  const height = Math.max(...groups.map((g) => Number(g.style?.height ?? 0)), 1);
  return Math.min(size.w / width, size.h / height) / (1 + 2 * FIT_PADDING) >= READABLE;
}

/** Where a node's centre is on the canvas (a step's position is relative to its behaviour's group). */
function centreOf(nodes: Node[], id: string): { x: number; y: number } | null {
  const node = nodes.find((n) => n.id === id);
  const group = node?.parentId ? nodes.find((n) => n.id === node.parentId) : undefined;
  return node ? { x: node.position.x + (group?.position.x ?? 0) + NODE_W / 2, y: node.position.y + (group?.position.y ?? 0) + NODE_H / 2 } : null;
}

/** Brings the selected interaction into view when it is chosen elsewhere (the list, the preview), keeping the zoom. */
function FollowSelection({ nodes, selected }: { nodes: Node[]; selected: Place | null }) {
  const flow = useReactFlow();
  const first = useRef(true);
  const id = selected ? placeId(selected) : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the selection only; a redraw of the nodes or a zoom must not move the view
  useEffect(() => {
    if (first.current) {
      first.current = false; // the first view is fitView's
      return;
    }
    const at = id ? centreOf(nodes, id) : null;
    if (at) void flow.setCenter(at.x, at.y, { zoom: Math.max(flow.getZoom(), READABLE), duration: 200 });
  }, [id]);
  return null;
}

export default function Canvas({ bot, selected, heard, problemCounts, onSelect, onConnect }: Props) {
  const { nodes, edges } = useMemo(() => layout(bot, selected, heard, problemCounts), [bot, selected, heard, problemCounts]);
  const steps = nodes.filter((n) => n.type === 'step');
  const focus = selected ?? { b: 0, i: 0 };
  // The canvas's size decides the first view, so it is measured before the flow is drawn.
  const box = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<{ w: number; h: number } | null>(null);
  useLayoutEffect(() => {
    if (box.current) setSize({ w: box.current.clientWidth, h: box.current.clientHeight });
  }, []);
  // a small flow is not blown up past its natural size either; the estimate above is the
  // flow's drawn bounds, so the minimum is still passed on in case they differ a little
  const fitViewOptions =
    !size || fitsReadably(nodes, size)
      ? { minZoom: READABLE, maxZoom: 1 }
      : {
          nodes: steps.filter((n) => n.parentId === `b${focus.b}` && Math.abs(Number(n.id.split('/')[1]) - focus.i) <= NEIGHBOURS).map((n) => ({ id: n.id })),
          minZoom: READABLE,
          maxZoom: 1,
        };
  return (
    <div className="canvas" role="region" aria-label="Flow canvas" ref={box}>
      {/* Remounted when the number of nodes changes, so a new or deleted step is fitted into view. */}
      {size && (
        <ReactFlow
          key={nodes.length}
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          fitView
          fitViewOptions={fitViewOptions}
          minZoom={0.1}
          maxZoom={2}
          nodesDraggable={false}
          onNodeClick={(_, node) => node.type === 'step' && onSelect(toPlace(node.id))}
          onConnect={(c) => c.source && c.target && c.source !== c.target && onConnect(toPlace(c.source), toPlace(c.target))}
        >
          <Background gap={20} />
          <Controls showInteractive={false} fitViewOptions={{ padding: 0.1 }} />
          <FollowSelection nodes={nodes} selected={selected} />
        </ReactFlow>
      )}
    </div>
  );
}
