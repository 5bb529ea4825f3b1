package transcript

import (
	"container/list"
	"hash/maphash"
	"sync"
)

// BodyCacheBytes bounds the rendered message bodies the process keeps: a
// message is immutable once posted, so the live page, its /parts and the
// HTML export render each text once and then serve it from here. The
// rendered HTML of ordinary Markdown is about one and a half times its
// text, so this holds every message of a few hundred ordinary rooms;
// the least recently used go first.
const BodyCacheBytes = 64 << 20

// bodyCache is a bounded cache of rendered bodies keyed by their text's
// length and two 64-bit hashes of it under seeds chosen at random when the
// process starts (hash/maphash: about ten times faster than SHA-256, which
// was most of a cached view of a room of large messages; no text can be
// made to collide with another without knowing the seeds), safe for
// concurrent use. A render of the same text by two
// callers at once may run twice; both store the same result.
type bodyCache struct {
	mu       sync.Mutex
	entries  map[bodyKey]*list.Element
	lru      *list.List // of *bodyEntry, most recent first
	bytes    int
	maxBytes int
}

// bodyKey identifies a text.
type bodyKey struct {
	h1, h2 uint64
	n      int
}

var bodySeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// keyOf is text's key in the cache.
func keyOf(text string) bodyKey {
	return bodyKey{maphash.String(bodySeeds[0], text), maphash.String(bodySeeds[1], text), len(text)}
}

type bodyEntry struct {
	key  bodyKey
	html string
}

// bodyEntryOverhead is what an entry costs beyond its HTML: the key, the
// list element and the map slot, roughly.
const bodyEntryOverhead = 160

func newBodyCache(maxBytes int) *bodyCache {
	return &bodyCache{entries: map[bodyKey]*list.Element{}, lru: list.New(), maxBytes: maxBytes}
}

var bodies = newBodyCache(BodyCacheBytes)

func (c *bodyCache) get(key bodyKey) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[key]
	if !ok {
		return "", false
	}
	c.lru.MoveToFront(el)
	return el.Value.(*bodyEntry).html, true
}

func (c *bodyCache) put(key bodyKey, html string) {
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
