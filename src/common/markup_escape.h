// Text made safe to place in XML or HTML: element content and quoted attribute values alike.
#pragma once

#include <string>
#include <string_view>

namespace databox {

//! `text` with & < > " ' replaced by references both XML and HTML read (&amp; &lt; &gt; &quot;
//! &#39;), so no text (a name, an error, an S3 key) can open a tag, close an attribute or start
//! an entity.
std::string EscapeMarkup(std::string_view text);

}  // namespace databox
