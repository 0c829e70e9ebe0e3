// Who has the conversation (the bot, a person, nobody: a ban) and whether the visitor may write:
// the notices that say so, the buttons that stop or start working again, the input's state.
import type { Api } from './client.js';
import { describe } from './client.js';
import { t } from './i18n.js';
import type { Presence } from './presence.js';
import type { View } from './view.js';

export const TAKEN_OVER = 2;
export const BANNED = 3;

export class Control {
  /** the conversation's control state as the server last said it */
  type = 0;
  /** the control state the user was last told about (notices for a person, the bot, a ban) */
  told = 0;
  /** the bot's newest reply leaves typing open (EnableUserChat) */
  enableUserChat = true;
  /** who has the conversation (state 2), as the server names them to the visitor */
  operatorName: string | null = null;
  operatorAvatar: string | null = null;

  constructor(
    private readonly view: View,
    private readonly api: Api,
    private readonly presence: Presence,
    private readonly userId: () => string | null,
  ) {}

  setOperator(name: string | null | undefined, avatar: string | null | undefined): void {
    this.operatorName = name ?? null;
    this.operatorAvatar = avatar ?? null;
  }

  /** The server refused the conversation because the visitor is banned. */
  banned(): void {
    this.type = this.told = BANNED;
    this.applyInput();
  }

  /** Tells the user when a person joins or leaves, or when they were banned (with the ban's message). */
  async tell(state: number): Promise<void> {
    const before = this.told;
    this.told = state;
    this.presence.control(state);
    // A person (or a ban) has the conversation: the bot's buttons would run a flow that is not
    // listening. When the bot has it back, it stands where it stood, so its newest buttons work again.
    if ((state === TAKEN_OVER || state === BANNED) && before !== state) this.view.disableButtons();
    if (state === 0 && (before === TAKEN_OVER || before === BANNED)) this.view.reviveNewestButtons();
    if (state === TAKEN_OVER && before !== TAKEN_OVER) this.view.notice(this.operatorName ? t.withPersonNamed(this.operatorName) : t.withPerson);
    else if (state === 0 && before === TAKEN_OVER) this.view.notice(t.withBot);
    else if (state !== BANNED && before === BANNED) this.view.notice(t.canWriteAgain);
    else if (state === BANNED && before !== BANNED) {
      // The state event does not carry the ban's message; the refused resume does (USER_BANNED).
      const userId = this.userId();
      const refusal = userId
        ? await this.api.start(userId).then(
            () => null,
            (error: unknown) => error,
          )
        : null;
      this.view.notice(describe(refusal, t.cannotWrite));
    }
  }

  applyInput(): void {
    // A banned user cannot write at all; while an operator has the conversation, the user can always write to them.
    if (this.type === BANNED) this.view.setInputEnabled(false, t.cannotWrite);
    else this.view.setInputEnabled(this.enableUserChat || this.type === TAKEN_OVER);
  }
}
