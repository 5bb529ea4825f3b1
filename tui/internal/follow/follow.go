// Package follow is the screens' one adapter from a room's feed to Bubble
// Tea messages. Every screen that shows a room as it changes waits for the
// room's next changes through Cmd: the debate screen on the debate it runs
// (its Session's events, which are the room's feed read back through
// debate.FollowStore), the debate screen on any other room (here, in
// another process, a host's mirror), and the watch screen on every room
// (room.Feed). The wait runs in a command, off the Update loop; the screen
// re-arms it after each message; once the screen lets go of the room (its
// context ends) a change read late is dropped, not shown.
package follow

import (
	"context"
	"io"

	tea "charm.land/bubbletea/v2"
)

// Next is one wait on a feed: the changes it gives next (a batch, as
// room.Feed.NextBatch gives them), or why it gave none.
type Next[T any] func(ctx context.Context) ([]T, error)

// Cmd waits on next, then returns msg's message for what it gave (msg runs
// in the command too: reads and renders that belong with the batch happen
// there, off the Update loop). It returns no message once ctx has ended.
func Cmd[T any](ctx context.Context, next Next[T], msg func(batch []T, err error) tea.Msg) tea.Cmd {
	return func() tea.Msg {
		batch, err := next(ctx)
		if ctx.Err() != nil {
			return nil
		}
		return msg(batch, err)
	}
}

// Chan is the Next of a feed handed over on a channel (a debate running
// here: its Session's events): the next value, then every value already
// queued behind it up to most, so a fast feed costs one message per frame
// rather than one per token. Once the channel is closed it returns what it
// took with io.EOF; ctx's error when ctx ends first.
func Chan[T any](ch <-chan T, most int) Next[T] {
	return func(ctx context.Context) ([]T, error) {
		var first T
		select {
		case v, ok := <-ch:
			if !ok {
				return nil, io.EOF
			}
			first = v
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		batch := append(make([]T, 0, min(most, 64)), first)
		for len(batch) < most {
			select {
			case v, ok := <-ch:
				if !ok {
					return batch, io.EOF
				}
				batch = append(batch, v)
			default:
				return batch, nil
			}
		}
		return batch, nil
	}
}
