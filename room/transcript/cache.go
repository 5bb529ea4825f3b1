package transcript

import (
	"container/list"
	"crypto/sha256"
	"sync"
)

// BodyCacheBytes bounds the rendered message bodies the process keeps: a
// message is immutable once posted, so the live page, its /parts and the
// HTML export render each text once and then serve it from here. The
// rendered HTML of ordinary Markdown is about one and a half times its
// text, so this holds every message of a few hundred ordinary rooms;
// the least recently used go first.
const BodyCacheBytes = 64 << 20

// bodyCache is a bounded cache of rendered bodies keyed by the SHA-256 of
// their text, safe for concurrent use. A render of the same text by two
// callers at once may run twice; both store the same result.
type bodyCache struct {
	mu       sync.Mutex
	entries  map[[sha256.Size]byte]*list.Element
	lru      *list.List // of *bodyEntry, most recent first
	bytes    int
	maxBytes int
}

type bodyEntry struct {
	key  [sha256.Size]byte
	html string
}

// bodyEntryOverhead is what an entry costs beyond its HTML: the key, the
// list element and the map slot, roughly.
const bodyEntryOverhead = 160

func newBodyCache(maxBytes int) *bodyCache {
	return &bodyCache{entries: map[[sha256.Size]byte]*list.Element{}, lru: list.New(), maxBytes: maxBytes}
}

var bodies = newBodyCache(BodyCacheBytes)

func (c *bodyCache) get(key [sha256.Size]byte) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[key]
	if !ok {
		return "", false
	}
	c.lru.MoveToFront(el)
	return el.Value.(*bodyEntry).html, true
}

func (c *bodyCache) put(key [sha256.Size]byte, html string) {
	size := len(html) + bodyEntryOverhead
	c.mu.Lock()
	defer c.mu.Unlock()
	if size > c.maxBytes {
		return
	}
	if el, ok := c.entries[key]; ok {
		c.lru.MoveToFront(el)
		return
	}
	c.entries[key] = c.lru.PushFront(&bodyEntry{key: key, html: html})
	c.bytes += size
	for c.bytes > c.maxBytes {
		el := c.lru.Back()
		e := el.Value.(*bodyEntry)
		c.lru.Remove(el)
		delete(c.entries, e.key)
		c.bytes -= len(e.html) + bodyEntryOverhead
	}
}

// size is the bytes the cache holds and its number of entries.
func (c *bodyCache) size() (bytes, entries int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes, len(c.entries)
}
