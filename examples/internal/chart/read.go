package chart

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
)

// Groups reads an SVG as the programs' tests do: it fails unless svg is
// well-formed XML, and returns the data- attributes of its <g> elements,
// as name=value in document order (Write tags each series' group with
// one).
func Groups(svg []byte) ([]string, error) {
	dec := xml.NewDecoder(bytes.NewReader(svg))
	var groups []string
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return groups, nil
		}
		if err != nil {
			return nil, err
		}
		if el, ok := tok.(xml.StartElement); ok && el.Name.Local == "g" {
			for _, a := range el.Attr {
				if strings.HasPrefix(a.Name.Local, "data-") {
					groups = append(groups, a.Name.Local+"="+a.Value)
				}
			}
		}
	}
}
