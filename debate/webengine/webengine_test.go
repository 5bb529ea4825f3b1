package webengine

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room/host/web"
)

// notCarried are debate.Event's fields the web face's stream has no use
// for: the cause as a Go error (its Text carries the message) and the
// provider's token count of a token event.
var notCarried = map[string]bool{"Err": true, "Pieces": true}

// TestEventCarriesEveryField fills every exported field of a debate.Event
// and checks the web face's Event holds each one: a field added to the
// contract's Event and not carried to the stream fails here.
func TestEventCarriesEveryField(t *testing.T) {
	var e debate.Event
	ev := reflect.ValueOf(&e).Elem()
	yes := true
	for i := range ev.NumField() {
		f, sf := ev.Field(i), ev.Type().Field(i)
		if !sf.IsExported() || notCarried[sf.Name] {
			continue
		}
		switch f.Kind() {
		case reflect.String:
			f.SetString("x-" + sf.Name)
		case reflect.Int:
			f.SetInt(int64(i + 1))
		case reflect.Int64:
			f.SetInt(int64(time.Duration(i+1) * time.Second))
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Slice:
			f.Set(reflect.ValueOf([]string{"a", "b"}))
		case reflect.Pointer:
			switch f.Type().Elem() {
			case reflect.TypeFor[bool]():
				f.Set(reflect.ValueOf(&yes))
			case reflect.TypeFor[debate.Usage]():
				f.Set(reflect.ValueOf(&debate.Usage{PromptTokens: 3, CompletionTokens: 4, Cost: 0.5}))
			default:
				t.Fatalf("debate.Event.%s is a %s: fill it here and carry it in Event", sf.Name, f.Type())
			}
		default:
			t.Fatalf("debate.Event.%s is a %s: fill it here and carry it in Event", sf.Name, f.Type())
		}
	}
	got := reflect.ValueOf(Event(e))
	for i := range ev.NumField() {
		sf := ev.Type().Field(i)
		if !sf.IsExported() || notCarried[sf.Name] {
			continue
		}
		w := got.FieldByName(sf.Name)
		if !w.IsValid() {
			t.Errorf("web.Event has no field %s: the stream cannot carry debate.Event.%s", sf.Name, sf.Name)
			continue
		}
		if w.IsZero() {
			t.Errorf("Event left %s empty (debate's was %v)", sf.Name, ev.Field(i).Interface())
			continue
		}
		want := ev.Field(i).Interface()
		if sf.Name == "Usage" {
			if u := w.Interface().(*web.Usage); *u != web.Usage(*e.Usage) {
				t.Errorf("Usage = %+v, want %+v", *u, *e.Usage)
			}
			continue
		}
		if sf.Name == "Type" {
			if w.String() != string(e.Type) {
				t.Errorf("Type = %q, want %q", w.String(), e.Type)
			}
			continue
		}
		if !reflect.DeepEqual(w.Interface(), want) {
			t.Errorf("%s = %v, want %v", sf.Name, w.Interface(), want)
		}
	}
}

// TestValidateSaysWhatIsWrong checks a bad panel is refused with the
// engine's reason, without its package's prefix, and a good one comes
// back completed.
func TestValidateSaysWhatIsWrong(t *testing.T) {
	eng := New()
	if _, err := eng.ValidatePersonas([]web.Persona{{Name: "", Persona: "p"}}); err == nil {
		t.Fatal("a persona without a name was accepted")
	} else if msg := err.Error(); msg == "" || strings.HasPrefix(msg, debate.ErrBadPersona.Error()) {
		t.Fatalf("refusal %q starts with the package's prefix", msg)
	}
	v, err := eng.ValidatePersonas([]web.Persona{{Name: "Ann", Persona: "a careful reviewer"}})
	if err != nil || len(v) != 1 || v[0].Name != "Ann" {
		t.Fatalf("a good panel: %v %+v", err, v)
	}
	if len(eng.DefaultPersonas) == 0 || eng.Moderator == "" || eng.MaxTopic == 0 || eng.Follow == nil || eng.RoomName == nil {
		t.Fatalf("New left a part empty: %+v", eng)
	}
}
