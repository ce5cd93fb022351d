// Findings kept to the end of a scan (transactions' collector keeps each partition's until the join) hold their
// messages: one built per partition is a rope of its pieces (7 for a REMOTE_NOT_READ note, 230 bytes), and a note
// said of every partition repeats the same text. Each message is looked up in a small map: hashing flattens it,
// and an equal one already kept is shared (40,000 partitions: transactions 129-135 -> 115-119 MiB peak).
import type { Finding } from '../analysis/findings.js'

/** distinct messages shared at most (a few distinct notes repeat; past it the map starts again) */
const MESSAGES_HELD = 256

export class SharedMessages {
  private readonly messages = new Map<string, string>()

  /** `f` with its message an equal one's kept before, else its own (flattened) */
  share(f: Finding): Finding {
    const m = this.messages.get(f.message)
    if (m !== undefined) f.message = m
    else {
      if (this.messages.size >= MESSAGES_HELD) this.messages.clear()
      this.messages.set(f.message, f.message)
    }
    return f
  }
}
