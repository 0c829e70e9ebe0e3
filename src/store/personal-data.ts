// What a personal-data export reads (conversations/personal-data.ts, governance.md "Personal-data
// export"): each section of one conversation's rows, page by page in key order, with the columns
// named as the export writes them. Credentials are not read: a share link's code (only its hash is
// stored anyway), a web visitor's id (it opens the widget's conversation).
import type { PersonalDataSection, PersonalDataStorage } from '../conversations/governance-port.js';
import type { Queryable } from './driver.js';

/** Each section: its columns (AS the export's names) and table, keyed by a unique, growing `k`. */
const SECTIONS: Record<PersonalDataSection, string> = {
  History: 'id AS k, direction AS "Direction", parts AS "Parts", pending AS "Pending", created_at AS "CreatedAt" FROM messages',
  Notes: 'id AS k, author AS "Author", operator_id AS "OperatorId", text AS "Text", created_at AS "CreatedAt" FROM conversation_notes',
  Activity: 'id AS k, kind AS "Kind", actor AS "Actor", detail AS "Detail", created_at AS "CreatedAt" FROM conversation_activity',
  AnalyticsEvents: 'id AS k, kind AS "Kind", value AS "Value", at AS "At" FROM analytics_events',
  MissedTexts: 'id AS k, text AS "Text", behaviour AS "Behaviour", interaction AS "Interaction", created_at AS "CreatedAt" FROM missed_texts',
  Deliveries:
    'id AS k, delivery_id AS "DeliveryId", target AS "Target", event AS "Event", body AS "Body", status AS "Status", attempts AS "Attempts", created_at AS "CreatedAt", delivered_at AS "DeliveredAt" FROM outbox',
  AgentTraces: 'id AS k, at AS "At", steps AS "Steps" FROM agent_traces',
  Approvals: 'id AS k, tool AS "Tool", arguments AS "Arguments", status AS "Status", decided_by AS "DecidedBy", reason AS "Reason", at AS "At", decided_at AS "DecidedAt" FROM agent_approvals',
  // the small ones: at most a row or a few per conversation (or per broadcast it received)
  Broadcasts: `(ROW_NUMBER() OVER (ORDER BY broadcast_id, run)) AS k, broadcast_id AS "BroadcastId", run AS "Run", channel AS "Channel", status AS "Status", reason AS "Reason", due_at AS "DueAt", sent_at AS "SentAt", clicked_at AS "ClickedAt" FROM broadcast_recipients`,
  Shares: '(ROW_NUMBER() OVER (ORDER BY created_at, code_hash)) AS k, mode AS "Mode", expires_at AS "ExpiresAt", handed_back AS "HandedBack", created_at AS "CreatedAt" FROM shares',
  Assignment: '1 AS k, operator_id AS "OperatorId", assigned_at AS "AssignedAt" FROM conversation_assignments',
  Inbox: '1 AS k, status AS "Status", snoozed_until AS "SnoozedUntil", team_id AS "TeamId", changed_at AS "ChangedAt" FROM conversation_inbox',
  WebVisitor: '1 AS k, page_url AS "PageUrl", user_agent AS "UserAgent", language AS "Language", seen_at AS "SeenAt" FROM web_contacts',
  ChannelContact: '1 AS k, last_inbound_id AS "LastInboundId", reply_address AS "ReplyAddress", ban_notice_at AS "BanNoticeAt" FROM channel_contacts',
};

export function personalDataRepository(db: Queryable): PersonalDataStorage['personalData'] {
  return {
    async page(section, conversationId, after, limit) {
      // ROW_NUMBER keys are computed over the conversation's rows, so the outer query pages them
      const rows = await db.all<Record<string, unknown> & { k: number | string }>(`SELECT * FROM (SELECT ${SECTIONS[section]} WHERE conversation_id = $1) AS s WHERE k > $2 ORDER BY k LIMIT $3`, [
        conversationId,
        after,
        limit,
      ]);
      return rows.map(({ k, ...row }) => ({ key: Number(k), row }));
    },
  };
}
