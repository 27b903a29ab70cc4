/**
 * Notes about recent results that a cell cannot show itself: a table sent as
 * plain numbers, its formats dropped, to stay within Excel's 5 MB limit for
 * one formula (src/office/cells/cell-values.ts). The runtime's call tracker keeps
 * the last few (src/office/call-tracker.ts); the counters panel polls them and
 * this shows the newest, where the user looks after a recalculation.
 */
import { Button, Caption1, makeStyles, MessageBarBody, tokens } from "@fluentui/react-components";
import { MessageBar } from "../shared/message-bar";
import type { ResultNote } from "../shared/pane-services";

/** Notes shown at once: the newest; older ones are counted. */
export const NOTES_SHOWN = 3;

const useStyles = makeStyles({
  list: { margin: 0, paddingLeft: tokens.spacingHorizontalL },
  row: { display: "flex", justifyContent: "flex-end" },
});

const timeOf = (at: number) => new Date(at).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });

export function ResultNotes({ notes, onDismiss }: { notes: readonly ResultNote[]; onDismiss(): void }) {
  const styles = useStyles();
  if (notes.length === 0) return null;
  const newest = [...notes].reverse().slice(0, NOTES_SHOWN);
  const earlier = notes.length - newest.length;
  return (
    <MessageBar intent="warning" layout="multiline" data-testid="result-notes">
      <MessageBarBody>
        <Caption1 as="p">About recent results:</Caption1>
        <ul className={styles.list}>
          {newest.map((note, i) => (
            <li key={`${note.at}-${i}`}>
              <Caption1>
                {timeOf(note.at)} · {note.text}
              </Caption1>
            </li>
          ))}
        </ul>
        {earlier > 0 && <Caption1 as="p">and {earlier} earlier</Caption1>}
        <div className={styles.row}>
          <Button size="small" appearance="subtle" onClick={onDismiss}>
            Dismiss
          </Button>
        </div>
      </MessageBarBody>
    </MessageBar>
  );
}
