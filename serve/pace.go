package serve

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// FrameWait is how long a served screen holds a frame that no key, click
// or resize caused, so that what arrives together is drawn as one frame.
//
// Each frame bubbletea draws costs a session the same whatever changed:
// the whole view is parsed into cells again and compared with the screen,
// line by line. A desk's sessions get their feeds together, and a refresh
// comes as several messages close together (the fetch starting, its
// reply), with the flash fading, the tape's reply and the second's tick
// close behind: drawn one by one, each is a frame in every session.
// Held this long, they are drawn as one; a trader's own input is drawn at
// once, and a quote is at most this much later on screen than in the model.
const FrameWait = 100 * time.Millisecond

// paced is a session's model behind the wait: it shows the view it last
// released until a frame held after a message is due.
type paced struct {
	m     tea.Model
	wait  time.Duration
	shown tea.View
	held  bool   // a frame is held: View shows the last one released
	gen   uint64 // the held frame's release
}

// releaseMsg ends the hold armed as gen.
type releaseMsg struct{ gen uint64 }

func pace(m tea.Model, wait time.Duration) *paced { return &paced{m: m, wait: wait} }

func (p *paced) Init() tea.Cmd { return p.m.Init() }

func (p *paced) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if r, ok := msg.(releaseMsg); ok {
		if r.gen == p.gen {
			p.held = false
		}
		return p, nil
	}
	held := p.held
	if !held {
		p.shown = p.m.View() // what the screen shows now, held while the message's frame waits
	}
	var cmd tea.Cmd
	p.m, cmd = p.m.Update(msg)
	switch msg.(type) {
	case tea.KeyPressMsg, tea.KeyReleaseMsg, tea.MouseClickMsg, tea.MouseReleaseMsg, tea.MouseWheelMsg,
		tea.MouseMotionMsg, tea.PasteMsg, tea.WindowSizeMsg:
		p.held = false // the trader's own: drawn at once, with whatever was held
		p.gen++
		return p, cmd
	}
	if held || p.wait <= 0 {
		return p, cmd
	}
	p.held = true
	p.gen++
	gen := p.gen
	return p, tea.Batch(cmd, tea.Tick(p.wait, func(time.Time) tea.Msg { return releaseMsg{gen} }))
}

// View is the model's view, or while a frame is held the last one shown.
func (p *paced) View() tea.View {
	if p.held {
		return p.shown
	}
	return p.m.View()
}
