package follow

import (
	"context"
	"errors"
	"io"
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"
)

type got struct {
	batch []int
	err   error
}

func TestChanBatchesWhatIsQueued(t *testing.T) {
	ch := make(chan int, 10)
	for i := range 5 {
		ch <- i
	}
	next := Chan(ch, 3)
	b, err := next(context.Background())
	if err != nil || !slices.Equal(b, []int{0, 1, 2}) {
		t.Fatalf("first batch = %v, %v; want [0 1 2] bounded by most", b, err)
	}
	b, err = next(context.Background())
	if err != nil || !slices.Equal(b, []int{3, 4}) {
		t.Fatalf("second batch = %v, %v; want [3 4], returned when nothing more is queued", b, err)
	}
	ch <- 5
	close(ch)
	b, err = next(context.Background())
	if !errors.Is(err, io.EOF) || !slices.Equal(b, []int{5}) {
		t.Fatalf("last batch = %v, %v; want [5] with io.EOF", b, err)
	}
	if b, err = next(context.Background()); !errors.Is(err, io.EOF) || len(b) != 0 {
		t.Fatalf("after the close = %v, %v; want nothing and io.EOF", b, err)
	}
}

func TestChanWaitsUntilCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := Chan(make(chan int), 8)(ctx)
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("a wait cancelled returned %v, want context.Canceled", err)
	}
}

func TestCmdWrapsTheBatch(t *testing.T) {
	ch := make(chan int, 2)
	ch <- 7
	cmd := Cmd(context.Background(), Chan(ch, 8), func(b []int, err error) tea.Msg { return got{b, err} })
	msg, ok := cmd().(got)
	if !ok || !slices.Equal(msg.batch, []int{7}) || msg.err != nil {
		t.Fatalf("Cmd gave %#v, want the batch [7] with no error", msg)
	}
}

func TestCmdDropsWhatCameAfterTheScreenLeft(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	next := func(context.Context) ([]int, error) {
		cancel() // the screen lets go while the wait reads
		return []int{1}, nil
	}
	cmd := Cmd(ctx, next, func([]int, error) tea.Msg { calls++; return got{} })
	if msg := cmd(); msg != nil || calls != 0 {
		t.Fatalf("after the screen left, Cmd gave %#v (msg called %d times), want nothing", msg, calls)
	}
}
