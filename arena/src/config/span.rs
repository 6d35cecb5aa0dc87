//! Where a value is in a config's text: the `file:line:column` of errors found after parsing (an
//! unknown game or builtin, a missing executable), as the parser gives them for the errors it finds.

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use toml::Spanned;

/// A TOML value with the byte span of every value inside it.
enum Node {
    Table(Vec<(String, Spanned<Node>)>),
    Array(Vec<Spanned<Node>>),
    String(String),
    /// A number, a boolean or a date: not looked into.
    Other,
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Node, D::Error> {
        d.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a TOML value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            // A date comes as a map of one private key, whose value has no span.
            if key.starts_with("$__toml_private") {
                map.next_value::<serde::de::IgnoredAny>()?;
                return Ok(Node::Other);
            }
            entries.push((key, map.next_value::<Spanned<Node>>()?));
        }
        Ok(Node::Table(entries))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Spanned<Node>>()? {
            items.push(item);
        }
        Ok(Node::Array(items))
    }

    fn visit_str<E>(self, s: &str) -> Result<Node, E> {
        Ok(Node::String(s.to_string()))
    }

    fn visit_string<E>(self, s: String) -> Result<Node, E> {
        Ok(Node::String(s))
    }

    fn visit_bool<E>(self, _: bool) -> Result<Node, E> {
        Ok(Node::Other)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Node, E> {
        Ok(Node::Other)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Node, E> {
        Ok(Node::Other)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Node, E> {
        Ok(Node::Other)
    }
}

/// The 1-based line and column of the string value at `keys` in the TOML `text` (table keys, and
/// array indices as numbers: `["bots", "1", "builtin"]`) when that value is `expected`; `None` when
/// the text does not parse, has no string there, or holds another (a config built as a value, not
/// read from this text).
pub fn position(text: &str, keys: &[&str], expected: &str) -> Option<(usize, usize)> {
    let root: Spanned<Node> = toml::from_str(text).ok()?;
    let mut node = &root;
    for key in keys {
        node = match node.get_ref() {
            Node::Table(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v)?,
            Node::Array(items) => items.get(key.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    match node.get_ref() {
        Node::String(s) if s == expected => Some(super::line_column(text, node.span().start)),
        _ => None,
    }
}

/// The 1-based line and column of the value at `keys` in the TOML `text`, whatever its type (a number,
/// a string, a table); `None` when the text does not parse or has no value there.
pub fn value_position(text: &str, keys: &[&str]) -> Option<(usize, usize)> {
    let root: Spanned<Node> = toml::from_str(text).ok()?;
    let mut node = &root;
    for key in keys {
        node = match node.get_ref() {
            Node::Table(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v)?,
            Node::Array(items) => items.get(key.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(super::line_column(text, node.span().start))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_found_by_its_keys_in_tables_and_arrays() {
        let text = "name = \"t\"\n[game]\nname = \"connect5\"\n[[bots]]\nname = \"a\"\n\
                    [[bots]]\nname = \"b\"\nbuiltin = \"randon\"\nargs = [\"x\", 3]\n";
        assert_eq!(position(text, &["game", "name"], "connect5"), Some((3, 8)));
        assert_eq!(
            position(text, &["bots", "1", "builtin"], "randon"),
            Some((8, 11))
        );
        assert_eq!(
            position(text, &["bots", "1", "args", "0"], "x"),
            Some((9, 9))
        );
        // Another value, no value, or no string there.
        assert_eq!(position(text, &["bots", "1", "builtin"], "random"), None);
        assert_eq!(position(text, &["bots", "0", "builtin"], "randon"), None);
        assert_eq!(position(text, &["bots", "1", "args", "1"], "3"), None);
        assert_eq!(position("not toml [", &["name"], "t"), None);
        // An inline table.
        assert_eq!(
            position("bot = { name = \"c\" }\n", &["bot", "name"], "c"),
            Some((1, 16))
        );
        // A date.
        assert_eq!(
            position("when = 1979-05-27\nname = \"d\"\n", &["name"], "d"),
            Some((2, 8))
        );
        // Any value, a number included.
        let game = "[game]\nname = \"kalah\"\nwidth = 7\n";
        assert_eq!(value_position(game, &["game", "width"]), Some((3, 9)));
        assert_eq!(value_position(game, &["game", "height"]), None);
    }
}
