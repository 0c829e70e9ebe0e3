// The knowledge card (knowledge.md: per day, the questions answered from the bot's knowledge and
// those left unanswered), a stacked bar chart beside the page's others; empty when none was asked.
import { COLORS, common, countAxis, dayAxis, draw, shortDate } from './charts';
import type { BotAnalytics } from './types';

export function drawKnowledgeChart(data: BotAnalytics): void {
  const t = data.Totals;
  const asked = t.KnowledgeAnswered + t.KnowledgeUnanswered;
  (document.getElementById('knowledge-chart') as HTMLElement).hidden = asked === 0;
  (document.getElementById('knowledge-empty') as HTMLElement).hidden = asked > 0;
  draw('chart-knowledge', {
    type: 'bar',
    data: {
      labels: data.Days.map((d) => shortDate(d.Date)),
      datasets: [
        { label: 'Answered', data: data.Days.map((d) => d.KnowledgeAnswered), backgroundColor: COLORS.green },
        { label: 'Not answered', data: data.Days.map((d) => d.KnowledgeUnanswered), backgroundColor: COLORS.red },
      ],
    },
    options: { ...common, scales: { x: { ...dayAxis, stacked: true }, y: { ...countAxis, stacked: true } } },
  }, `Stacked bar chart from ${data.From} to ${data.To}: ${asked} questions asked of the knowledge, ${t.KnowledgeAnswered} answered and ${t.KnowledgeUnanswered} not answered.`);
}
